"""The machines' settings (archive/machines.py, configfile.py): addresses checked before they
reach a command line, tables added and removed with every other line of the file kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from ink_tui.archive.machines import (
    MachineError,
    add_machine,
    load_machines,
    parse_url,
    remove_machine,
)
from ink_tui.catalog.roots import Root


@pytest.mark.parametrize(
    ("text", "user", "host", "port", "path"),
    [
        ("ssh://devbox", None, "devbox", None, ".ink/sessions"),
        ("ssh://me@devbox:2222", "me", "devbox", 2222, ".ink/sessions"),
        ("ssh://devbox/srv/ink", None, "devbox", None, "/srv/ink"),
        ("ssh://devbox/~/other/sessions/", None, "devbox", None, "other/sessions"),
        ("ssh://[::1]:22/", None, "[::1]", 22, ".ink/sessions"),
    ],
)
def test_an_ssh_address_is_read_into_its_parts(
    text: str, user: str | None, host: str, port: int | None, path: str
) -> None:
    url = parse_url(text)
    assert (url.scheme, url.user, url.host, url.port, url.path) == ("ssh", user, host, port, path)


@pytest.mark.parametrize(
    "text",
    [
        "ssh://-oProxyCommand=touch%20x/",  # ssh would read the host as an option
        "ssh://-lroot@devbox",
        "ssh://dev box",
        "ssh://devbox:99999",
        "ssh://devbox/../etc",
        "ssh://devbox\x1b[31m",
        "http://devbox",
        "s3://A_Bucket",
    ],
)
def test_an_address_a_command_line_could_misread_is_refused(text: str) -> None:
    with pytest.raises(MachineError, match="address"):
        parse_url(text)


def test_s3_addresses_name_a_bucket_and_a_prefix() -> None:
    url = parse_url("s3://ink-archive/team/ci")
    assert (url.scheme, url.host, url.path) == ("s3", "ink-archive", "team/ci")


def test_machines_are_added_and_removed_keeping_the_rest_of_the_file(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('# mine\ntheme = "ink"\n\n[prices."x/y"]\ninput = 1.5\n')
    add_machine("devbox", "ssh://me@devbox", config)
    add_machine("ci", "ssh://runner:2200/srv/ink", config)
    assert [(m.name, m.url.text) for m in load_machines(config)] == [
        ("devbox", "ssh://me@devbox"),
        ("ci", "ssh://runner:2200/srv/ink"),
    ]
    with pytest.raises(MachineError, match="already set up"):
        add_machine("devbox", "ssh://elsewhere", config)
    remove_machine("devbox", config)
    assert [m.name for m in load_machines(config)] == ["ci"]
    remove_machine("ci", config)
    assert config.read_text() == '# mine\ntheme = "ink"\n\n[prices."x/y"]\ninput = 1.5\n'
    with pytest.raises(MachineError, match="no machine is named ci"):
        remove_machine("ci", config)


@pytest.mark.parametrize("name", ["", "-x", "my.box", "a/b", "x" * 64, "naïve"])
def test_a_name_that_cannot_be_a_table_or_a_folder_is_refused(tmp_path: Path, name: str) -> None:
    with pytest.raises(MachineError, match="machine name"):
        add_machine(name, "ssh://devbox", tmp_path / "config.toml")
    assert not (tmp_path / "config.toml").exists()


def test_a_settings_table_that_cannot_be_used_is_one_error_naming_the_file(
    tmp_path: Path,
) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[machines.box]\nurl = "ssh://-oProxyCommand=x"\n')
    with pytest.raises(MachineError) as raised:
        load_machines(config)
    assert str(raised.value).startswith(f"{config}: [machines.box]: address")
    config.write_text("[machines.box\n")
    with pytest.raises(MachineError, match="not valid TOML"):
        load_machines(config)


def test_a_path_map_is_read_with_its_machine_and_moves_a_project_here(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(
        '[machines.devbox]\nurl = "ssh://devbox"\n'
        'paths = { "/home/me/src" = "/Users/me/src", "/srv/" = "/Volumes/srv" }\n'
    )
    (machine,) = load_machines(config)
    assert machine.paths == (("/home/me/src", "/Users/me/src"), ("/srv", "/Volumes/srv"))
    root = Root(tmp_path / "mirror", "devbox", machine.paths)
    assert root.here("/home/me/src/api") == "/Users/me/src/api"
    assert root.here("/home/me/srcs") == "/home/me/srcs"  # a folder boundary, not a prefix
    assert root.mapped("/srv") and not root.mapped("/home/me")
    assert root.there("/Users/me/src/api") == ["/Users/me/src/api", "/home/me/src/api"]
    assert [folder.name for folder in root.project_folders("/Users/me/src/api")] == [
        "Users-me-src-api",
        "home-me-src-api",
    ]


@pytest.mark.parametrize(
    ("paths", "said"),
    [
        ('paths = "/home/me"', "paths must be a table"),
        ('paths = { "home/me" = "/Users/me" }', "'home/me' is not an absolute folder path"),
        ('paths = { "/home/me" = 3 }', "3 is not an absolute folder path"),
    ],
)
def test_a_path_map_that_cannot_be_used_is_one_error_naming_the_table(
    tmp_path: Path, paths: str, said: str
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f'[machines.devbox]\nurl = "ssh://devbox"\n{paths}\n')
    with pytest.raises(MachineError) as raised:
        load_machines(config)
    message = str(raised.value)
    assert message.startswith(f"{config}: [machines.devbox]: paths") and said in message
    assert "\n" not in message
