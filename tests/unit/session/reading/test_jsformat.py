"""session/reading/jsformat.py's ``js_string``: JavaScript's ``String(n)``, the one spelling of a
number in Ink's texts (a tool's timeout, an argument shown in an error, a token count). The
expected strings are Node's (``node -e 'console.log(String(x))'``)."""

from __future__ import annotations

import math

import pytest

from ink_tui.session.reading.jsformat import js_string


@pytest.mark.parametrize(
    ("value", "node"),
    [
        (0.000001, "0.000001"),  # Python's repr says 1e-06
        (1e-7, "1e-7"),
        (1.5e21, "1.5e+21"),
        (1e21, "1e+21"),
        (123456789012345680000.0, "123456789012345680000"),
        (2.5, "2.5"),
        (120.0, "120"),
        (-0.0, "0"),
        (0.1 + 0.2, "0.30000000000000004"),
        (math.nan, "NaN"),
        (-math.inf, "-Infinity"),
        (7, "7"),
    ],
)
def test_a_number_is_spelt_as_javascripts_string_spells_it(value: float, node: str) -> None:
    assert js_string(value) == node
