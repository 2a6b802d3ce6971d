"""``open_session``: Ink's ``open()`` rules line by line (spec §3, §10; ink-source §1-§2)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from ink_tui.session import EngineError, SessionError, branch, build_context, open_session


def _open(path: Path) -> Any:
    return open_session(path, warn=None)


def _error(path: Path) -> SessionError:
    with pytest.raises(SessionError) as caught:
        _open(path)
    return caught.value


def _ids(session: Any) -> list[str]:
    return [entry.id for entry in session.entries]


# -- blank lines and line numbers ------------------------------------------------------------


@pytest.mark.parametrize(
    "blank",
    ["", "   ", "\t", "\r", "\xa0", "\u3000", "\u2028", "\u2029", "\ufeff", " \xa0\u3000\ufeff "],
    ids=["empty", "spaces", "tab", "cr", "nbsp", "u3000", "u2028", "u2029", "bom", "mixed"],
)
def test_js_trim_blank_lines_are_skipped_and_not_counted(sf: Any, blank: str) -> None:
    path = sf.write(sf.user("a", None), blank, blank, '{"type":"x","id":"b"}', sf.user("c", "a"))
    # The bad record is the 3rd non-blank line: the blank lines between are not counted.
    assert _error(path).message == "session line 3: invalid parentId"


def test_blank_lines_between_records_load(sf: Any) -> None:
    path = sf.write(sf.user("a", None), "\u3000", "\xa0", sf.assistant("b", "a"), "\ufeff")
    session = _open(path)
    assert _ids(session) == ["a", "b"]
    assert session.leaf_id == "b"
    assert not session.torn_final_line


@pytest.mark.parametrize("char", ["\x1c", "\x1d", "\x1e", "\x1f", "\x85"])
def test_python_only_whitespace_is_not_blank(sf: Any, char: str) -> None:
    # Python's str.strip() removes these; JavaScript's trim() does not: the line is JSON garbage.
    path = sf.write(sf.user("a", None), char, sf.user("b", "a"))
    message = _error(path).message
    assert message.startswith("session line 3: invalid JSON (")


def test_line_numbers_count_non_blank_lines_only(sf: Any) -> None:
    path = sf.write(
        "", sf.user("a", None), "", "", sf.user("b", "a"), "  ", "{oops", sf.user("c", "b")
    )
    error = _error(path)
    assert error.message.startswith("session line 4: invalid JSON (")
    assert error.line == 4


def test_crlf_line_endings_are_tolerated(sf: Any) -> None:
    data = b"\r\n".join(
        sf.line(item) for item in (sf.header(), sf.user("a", None), sf.assistant("b", "a"))
    )
    session = _open(sf.write_bytes(data + b"\r\n"))
    assert _ids(session) == ["a", "b"]
    assert build_context(session).messages[0] == {"role": "user", "content": "hi"}
    assert not session.torn_final_line


def test_bom_before_header_is_fatal(sf: Any) -> None:
    data = b"\xef\xbb\xbf" + sf.line(sf.header()) + b"\n" + sf.line(sf.user("a", None)) + b"\n"
    path = sf.write_bytes(data)
    assert _error(path).message == f"session file {path}: first line is not valid JSON"


def test_bom_on_its_own_line_before_header_is_blank(sf: Any) -> None:
    data = "\ufeff\n".encode() + sf.line(sf.header()) + b"\n" + sf.line(sf.user("a", None)) + b"\n"
    assert _ids(_open(sf.write_bytes(data))) == ["a"]


# -- entry checks, in Ink's order ------------------------------------------------------------

ENTRY_CHECKS = [
    # (line, Ink's text) - each line also fails every LATER check, so the order is tested too.
    ("5", "missing entry type"),
    ('"text"', "missing entry type"),
    ("[1,2]", "missing entry type"),
    ('{"id":"a"}', "missing entry type"),
    ('{"type":7,"id":"a","parentId":null,"timestamp":"t"}', "missing entry type"),
    ('{"type":"message"}', "missing entry id"),
    ('{"type":"message","id":""}', "missing entry id"),
    ('{"type":"message","id":3,"parentId":null}', "missing entry id"),
    ('{"type":"message","id":"a"}', "invalid parentId"),
    ('{"type":"message","id":"a","parentId":5}', "invalid parentId"),
    ('{"type":"message","id":"a","parentId":false,"timestamp":"t"}', "invalid parentId"),
    ('{"type":"message","id":"a","parentId":null}', "missing timestamp"),
    ('{"type":"x","id":"a","parentId":null,"timestamp":1}', "missing timestamp"),
    (
        '{"type":"message","id":"a","parentId":null,"timestamp":"t"}',
        "message entry has no valid message.role",
    ),
    (
        '{"type":"message","id":"a","parentId":null,"timestamp":"t","message":null}',
        "message entry has no valid message.role",
    ),
    (
        '{"type":"message","id":"a","parentId":null,"timestamp":"t","message":{"role":1}}',
        "message entry has no valid message.role",
    ),
    (
        '{"type":"compaction","id":"a","parentId":null,"timestamp":"t","retainedTail":[]}',
        "compaction entry missing summary",
    ),
    (
        '{"type":"branchSummary","id":"a","parentId":null,"timestamp":"t","summary":5}',
        "branchSummary entry missing summary",
    ),
    (
        '{"type":"thinkingLevelChange","id":"a","parentId":null,"timestamp":"t"}',
        "thinkingLevelChange entry missing level",
    ),
    (
        '{"type":"session_info","id":"a","parentId":null,"timestamp":"t","name":null}',
        "session_info entry missing name",
    ),
    (
        '{"type":"label","id":"a","parentId":null,"timestamp":"t","label":"x"}',
        "label entry missing targetId/label",
    ),
    (
        '{"type":"label","id":"a","parentId":null,"timestamp":"t","targetId":"x"}',
        "label entry missing targetId/label",
    ),
    ('{"type":"x","id":"a","parentId":null,"timestamp":"t"}', 'unknown entry type "x"'),
    ('{"type":"","id":"a","parentId":null,"timestamp":"t"}', 'unknown entry type ""'),
]


@pytest.mark.parametrize(("line", "text"), ENTRY_CHECKS, ids=[t for _, t in ENTRY_CHECKS])
def test_interior_entry_check_is_fatal_with_inks_text(sf: Any, line: str, text: str) -> None:
    path = sf.write(sf.user("a0", None), line, sf.user("a1", "a0"))
    error = _error(path)
    assert error.message == f"session line 3: {text}"
    assert not isinstance(error, EngineError)


@pytest.mark.parametrize(("line", "text"), ENTRY_CHECKS, ids=[t for _, t in ENTRY_CHECKS])
def test_same_check_on_the_final_line_drops_it(sf: Any, line: str, text: str) -> None:
    path = sf.write(sf.user("a0", None), line)
    session = _open(path)
    assert _ids(session) == ["a0"]
    assert session.leaf_id == "a0"
    assert session.torn_final_line
    assert session.dropped_final_line is not None
    assert session.dropped_final_line.line == 3
    assert text in session.dropped_final_line.reason


def test_second_session_header_mid_file_fails_as_invalid_parent_id(sf: Any) -> None:
    path = sf.write(sf.user("a", None), sf.header(), sf.user("b", "a"))
    assert _error(path).message == "session line 3: invalid parentId"


def test_valid_entry_types_all_load(sf: Any) -> None:
    path = sf.write(
        sf.user("a", None),
        sf.entry("compaction", "b", "a", summary="s", retainedTail=[], tokensBefore=1),
        sf.entry("branchSummary", "c", "b", summary="s"),
        sf.entry("thinkingLevelChange", "d", "c", thinkingLevel="whatever"),
        sf.entry("session_info", "e", "d", name=""),
        sf.entry("label", "f", "e", targetId="nowhere", label=""),
        sf.entry("message", "g", "e", message={"role": "system-ish"}),
    )
    session = _open(path)
    assert _ids(session) == list("abcdefg")
    assert not session.torn_final_line


# -- header ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "header",
    [
        '{"type":"session","version":2,"id":"s"}',
        '{"type":"session","version":"1","id":"s"}',
        '{"type":"session","version":true,"id":"s"}',
        '{"type":"session","version":1,"id":5}',
        '{"type":"session","version":1}',
        '{"type":"message","version":1,"id":"s"}',
        "[1]",
        "5",
        '"session"',
    ],
)
def test_unsupported_header(sf: Any, header: str) -> None:
    path = sf.write(header, sf.user("a", None), header=False)
    assert _error(path).message == f"session file {path}: missing or unsupported session header"


def test_header_version_one_point_zero_and_empty_id_are_accepted(sf: Any) -> None:
    path = sf.write('{"type":"session","version":1.0,"id":""}', sf.user("a", None), header=False)
    assert _ids(_open(path)) == ["a"]


@pytest.mark.parametrize("header", ['{"type":"session",', "not json", '{"type":"session"}}'])
def test_header_not_json(sf: Any, header: str) -> None:
    path = sf.write(header, sf.user("a", None), header=False)
    assert _error(path).message == f"session file {path}: first line is not valid JSON"


def test_null_header_is_an_engine_error(sf: Any) -> None:
    path = sf.write("null", sf.user("a", None), header=False)
    with pytest.raises(EngineError):
        _open(path)


@pytest.mark.parametrize(
    "model",
    [
        None,
        "zai/glm-5.3",
        {"provider": "google", "modelId": "gemini"},
        {"provider": "zai", "modelId": "  "},
        {"provider": "zai"},
        {"modelId": "glm-5.3"},
    ],
)
def test_invalid_header_model_is_fatal(sf: Any, model: Any) -> None:
    path = sf.write(sf.header(model=model), sf.user("a", None), header=False)
    assert _error(path).message == "session header: invalid session model"


def test_header_model_invalid_even_without_entries(sf: Any) -> None:
    path = sf.write(sf.header(model={"provider": "nope", "modelId": "m"}), header=False)
    assert _error(path).message == "session header: invalid session model"


def test_unknown_header_fields_are_tolerated(sf: Any) -> None:
    path = sf.write(sf.header(parent="p", launch={"version": 1}, future=[1]), header=False)
    session = _open(path)
    assert session.header["future"] == [1]
    assert session.leaf_id is None


# -- session_model markers -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("marker", "text"),
    [
        (
            {"type": "session_model", "provider": "google", "modelId": "g", "explicit": True},
            "invalid session model",
        ),
        (
            {"type": "session_model", "provider": "zai", "modelId": " ", "explicit": True},
            "invalid session model",
        ),
        ({"type": "session_model", "provider": "zai", "explicit": True}, "invalid session model"),
        # the model is checked before the flag
        ({"type": "session_model", "provider": "nope", "modelId": "m"}, "invalid session model"),
        (
            {"type": "session_model", "provider": "zai", "modelId": "glm-5.3"},
            "invalid session model explicit flag",
        ),
        (
            {"type": "session_model", "provider": "zai", "modelId": "glm-5.3", "explicit": "yes"},
            "invalid session model explicit flag",
        ),
    ],
)
def test_session_model_errors(sf: Any, marker: dict[str, Any], text: str) -> None:
    path = sf.write(sf.user("a", None), marker, sf.user("b", "a"))
    assert _error(path).message == f"session line 3: {text}"
    # as the final line it is a torn line instead
    session = _open(sf.write(sf.user("a", None), marker))
    assert session.dropped_final_line is not None
    assert session.session_models == []


def test_model_id_of_a_python_only_whitespace_char_is_valid(sf: Any) -> None:
    path = sf.write(sf.user("a", None), sf.session_model("zai", "\x1c"), sf.user("b", "a"))
    session = _open(path)
    assert session.session_models[0].record["modelId"] == "\x1c"


def test_model_id_of_only_bom_is_blank(sf: Any) -> None:
    path = sf.write(sf.user("a", None), sf.session_model("zai", "\ufeff\u3000"), sf.user("b", "a"))
    assert _error(path).message == "session line 3: invalid session model"


def test_model_id_of_js_whitespace_is_blank(sf: Any) -> None:
    path = sf.write(sf.user("a", None), sf.session_model("zai", "\xa0\u3000"), sf.user("b", "a"))
    assert _error(path).message == "session line 3: invalid session model"


def test_moonshot_providers_are_known(sf: Any) -> None:
    path = sf.write(
        sf.session_model("moonshotai", "kimi"),
        sf.session_model("moonshotai-cn", "kimi", explicit=False),
    )
    assert [m.record["provider"] for m in _open(path).session_models] == [
        "moonshotai",
        "moonshotai-cn",
    ]


# -- position markers ------------------------------------------------------------------------


@pytest.mark.parametrize("leaf", [5, True, ["a"], {"id": "a"}])
def test_bad_position_marker_is_silently_skipped(sf: Any, leaf: Any) -> None:
    path = sf.write(sf.user("a", None), sf.position(leaf), sf.user("b", "a"))
    session = _open(path)
    assert _ids(session) == ["a", "b"]
    assert session.positions == []
    assert len(session.skipped_markers) == 1


def test_bad_position_marker_as_last_line_is_not_torn(sf: Any) -> None:
    path = sf.write(sf.user("a", None), sf.user("b", "a"), sf.position(7))
    session = _open(path)
    assert session.leaf_id == "b"
    assert not session.torn_final_line
    assert session.dropped_final_line is None


def test_position_without_leaf_id_is_skipped(sf: Any) -> None:
    session = _open(sf.write(sf.user("a", None), sf.assistant("b", "a"), {"type": "position"}))
    assert session.leaf_id == "b"
    assert session.positions == []
    assert [m["role"] for m in build_context(session).messages] == ["user", "assistant"]


def test_position_with_explicit_null_leaf_id_is_recorded(sf: Any) -> None:
    session = _open(sf.write(sf.user("a", None), {"type": "position", "leafId": None}))
    assert session.leaf_id is None
    assert len(session.positions) == 1


# -- torn final line -------------------------------------------------------------------------


def test_half_written_final_line_is_dropped(sf: Any) -> None:
    path = sf.write(
        sf.user("a", None), sf.user("b", "a"), '{"type":"message","id":"c","pa', newline=False
    )
    session = _open(path)
    assert _ids(session) == ["a", "b"]
    assert session.leaf_id == "b"
    assert session.torn_final_line
    assert session.dropped_final_line is not None
    assert session.dropped_final_line.line == 4


def test_failing_final_line_is_dropped_despite_newline_and_trailing_blank_lines(sf: Any) -> None:
    path = sf.write(
        sf.user("a", None),
        '{"type":"x","id":"z","parentId":"a","timestamp":"t"}',
        "",
        "  ",
        "\u3000",
    )
    session = _open(path)
    assert _ids(session) == ["a"]
    assert session.ends_with_newline
    assert session.torn_final_line
    assert session.dropped_final_line is not None


def test_same_failure_on_an_earlier_line_is_fatal_with_its_line_number(sf: Any) -> None:
    bad = '{"type":"x","id":"z","parentId":"a","timestamp":"t"}'
    path = sf.write(sf.user("a", None), bad, "", sf.user("b", "a"))
    error = _error(path)
    assert error.message == 'session line 3: unknown entry type "x"'
    assert error.line == 3


def test_final_null_line_is_fatal_engine_error(sf: Any) -> None:
    path = sf.write(sf.user("a", None), "null")
    with pytest.raises(EngineError) as caught:
        _open(path)
    assert caught.value.line == 3


def test_interior_null_line_is_fatal_engine_error(sf: Any) -> None:
    with pytest.raises(EngineError):
        _open(sf.write(sf.user("a", None), "null", sf.user("b", "a")))


def test_valid_final_record_without_newline_is_kept_but_torn(sf: Any) -> None:
    path = sf.write(sf.user("a", None), sf.user("b", "a"), newline=False)
    session = _open(path)
    assert _ids(session) == ["a", "b"]
    assert session.torn_final_line
    assert session.dropped_final_line is None
    assert not session.ends_with_newline


def test_complete_file_is_not_torn(sf: Any) -> None:
    session = _open(sf.write(sf.user("a", None)))
    assert not session.torn_final_line
    assert session.dropped_final_line is None


def test_header_only_without_newline_is_torn(sf: Any) -> None:
    session = _open(sf.write(newline=False))
    assert session.entries == []
    assert session.leaf_id is None
    assert session.torn_final_line


def test_dropping_a_torn_line_warns_with_inks_note(sf: Any) -> None:
    path = sf.write(sf.user("a", None), "{", newline=False)
    stream = io.StringIO()
    open_session(path, warn=stream)
    assert stream.getvalue() == f"ink: dropping torn final line in {path}\n"


def test_no_warning_without_a_dropped_line(sf: Any) -> None:
    path = sf.write(sf.user("a", None), newline=False)
    stream = io.StringIO()
    open_session(path, warn=stream)
    assert stream.getvalue() == ""


# -- JSON that JSON.parse accepts ------------------------------------------------------------

PREFIX = '{"type":"message","id":"a","parentId":null,"timestamp":"t",'


def test_number_overflowing_to_infinity_loads(sf: Any) -> None:
    line = PREFIX + '"message":{"role":"user","content":"x","n":1e400}}'
    session = _open(sf.write(line, sf.user("b", "a")))
    assert session.by_id["a"].record["message"]["n"] == float("inf")


def test_lone_surrogate_escape_loads(sf: Any) -> None:
    line = PREFIX + '"message":{"role":"user","content":"\\ud83d!"}}'
    session = _open(sf.write(line, sf.user("b", "a")))
    assert session.by_id["a"].record["message"]["content"] == "\ud83d!"


def test_one_point_zero_loads(sf: Any) -> None:
    line = PREFIX + '"message":{"role":"user","content":"x","n":1.0}}'
    session = _open(sf.write(line, sf.user("b", "a")))
    assert session.by_id["a"].record["message"]["n"] == 1


@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_tokens_are_refused(sf: Any, token: str) -> None:
    line = PREFIX + '"message":{"role":"user","n":%s}}'
    path = sf.write(sf.user("z", None), line % token, sf.user("b", "z"))
    assert _error(path).message.startswith("session line 3: invalid JSON (")


def test_invalid_utf8_inside_a_string_loads_as_replacement_character(sf: Any) -> None:
    line = (
        b'{"type":"message","id":"a","parentId":null,"timestamp":"t",'
        b'"message":{"role":"user","content":"caf\xe9 \xff!"}}'
    )
    session = _open(sf.write(line, sf.user("b", "a")))
    assert session.by_id["a"].record["message"]["content"] == "caf\ufffd \ufffd!"


def test_raw_u2028_inside_a_string_does_not_split_the_line(sf: Any) -> None:
    session = _open(sf.write(sf.user("a", None, "one\u2028two\u2029three"), sf.user("b", "a")))
    assert session.by_id["a"].record["message"]["content"] == "one\u2028two\u2029three"


# -- empty and missing files -----------------------------------------------------------------


def test_empty_file(sf: Any) -> None:
    path = sf.write_bytes(b"")
    assert _error(path).message == f"empty session file: {path}"


def test_whitespace_only_file(sf: Any) -> None:
    path = sf.write_bytes(" \n\t\r\n\n\u3000\ufeff\n\xa0".encode())
    assert _error(path).message == f"empty session file: {path}"


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.jsonl"
    assert _error(path).message == f"session file not found: {path}"


# -- the leaf --------------------------------------------------------------------------------


def test_leaf_is_the_last_non_label_entry(sf: Any) -> None:
    path = sf.write(
        sf.user("a", None),
        sf.assistant("b", "a"),
        sf.entry("label", "l1", "b", targetId="a", label="start"),
    )
    assert _open(path).leaf_id == "b"


def test_leaf_is_null_without_entries(sf: Any) -> None:
    session = _open(sf.write(sf.session_model("zai", "glm-5.3")))
    assert session.leaf_id is None
    assert branch(session) == []


def test_position_after_the_last_entry_wins(sf: Any) -> None:
    path = sf.write(sf.user("a", None), sf.assistant("b", "a"), sf.user("c", "b"), sf.position("a"))
    session = _open(path)
    assert session.leaf_id == "a"
    assert [e.id for e in branch(session)] == ["a"]


def test_only_the_last_position_counts(sf: Any) -> None:
    path = sf.write(sf.user("a", None), sf.assistant("b", "a"), sf.position("a"), sf.position("b"))
    assert _open(path).leaf_id == "b"


def test_position_before_a_later_entry_is_ignored(sf: Any) -> None:
    path = sf.write(sf.user("a", None), sf.position(None), sf.assistant("b", "a"))
    assert _open(path).leaf_id == "b"


def test_position_may_name_a_label(sf: Any) -> None:
    path = sf.write(
        sf.user("a", None),
        sf.assistant("b", "a"),
        sf.entry("label", "lab", "a", targetId="a", label="x"),
        sf.position("lab"),
    )
    session = _open(path)
    assert session.leaf_id == "lab"
    assert [e.id for e in branch(session)] == ["a", "lab"]


def test_position_with_unknown_id_is_ignored(sf: Any) -> None:
    path = sf.write(
        sf.user("a", None), sf.assistant("b", "a"), sf.position("a"), sf.position("ghost")
    )
    # the last valid position names nothing: the leaf falls back to the last entry, not to "a"
    assert _open(path).leaf_id == "b"


def test_label_after_a_position_cancels_it(sf: Any) -> None:
    path = sf.write(
        sf.user("a", None),
        sf.assistant("b", "a"),
        sf.position("a"),
        sf.entry("label", "lab", "a", targetId="a", label="x"),
    )
    assert _open(path).leaf_id == "b"


def test_session_model_after_a_position_does_not_cancel_it(sf: Any) -> None:
    path = sf.write(
        sf.user("a", None), sf.assistant("b", "a"), sf.position("a"), sf.session_model("zai", "glm")
    )
    assert _open(path).leaf_id == "a"


def test_bad_position_after_a_good_one_does_not_cancel_it(sf: Any) -> None:
    path = sf.write(sf.user("a", None), sf.assistant("b", "a"), sf.position("a"), sf.position(3))
    assert _open(path).leaf_id == "a"


def test_position_null_gives_an_empty_branch_and_context(sf: Any) -> None:
    path = sf.write(sf.user("a", None), sf.assistant("b", "a"), sf.position(None))
    session = _open(path)
    assert session.leaf_id is None
    assert branch(session) == []
    context = build_context(session)
    assert context.messages == []
    assert context.leaf_id is None


def test_duplicate_ids_later_wins(sf: Any) -> None:
    path = sf.write(
        sf.user("a", None, "first"),
        sf.user("a", None, "second"),
        sf.assistant("b", "a"),
    )
    session = _open(path)
    assert len(session.entries) == 3
    assert session.duplicate_ids == ["a"]
    assert build_context(session).messages[0]["content"] == "second"


def test_duplicate_id_as_leaf_resolves_to_the_later_entry(sf: Any) -> None:
    path = sf.write(sf.user("a", None, "one"), sf.assistant("b", "a"), sf.user("b", "a", "dup"))
    session = _open(path)
    assert session.leaf_id == "b"
    assert [m["role"] for m in build_context(session).messages] == ["user", "user"]
