"""The tree's width in the settings file: kept beside every other setting, ignored when odd."""

from __future__ import annotations

from pathlib import Path

import pytest

from ink_tui.ui.config import UiConfig, load_config, save_config, save_setting


def test_the_tree_width_is_saved_beside_the_theme_and_the_tables(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    text = '# mine\ntheme = "nord"\n\n[prices."a/b"]\ntree_width = 1\n'
    path.write_text(text)
    save_setting("tree_width", 35, path)
    assert path.read_text() == "tree_width = 35\n" + text  # a table's key is not the setting
    assert load_config(path) == UiConfig(theme="nord", tree_width=35)
    save_setting("tree_width", 50, path)
    save_config(UiConfig(theme="ink", tree_width=20), path)  # the theme only: the width kept
    assert load_config(path) == UiConfig(theme="ink", tree_width=50)


@pytest.mark.parametrize("value", ["true", "5", "95", '"40"', "40.0"])
def test_an_odd_tree_width_is_left_out(tmp_path: Path, value: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(f'theme = "nord"\ntree_width = {value}\n')
    assert load_config(path) == UiConfig(theme="nord", tree_width=None)
