"""The commands of ``ink-tui``, one module each (or one per small family: ``check`` and
``repair``; ``index`` and ``search``; ``rename``, ``label``, ``delete``, ``trash``, ``prune`` and
``adopt``).

A command's module gives ``add_arguments(parser)`` (its arguments and its longer description) and
``run(args, sessions folder, cwd, out) -> exit code``, and :mod:`ink_tui.cli.registry` lists it
with its one-line help. A module imports at its top only what building the parser needs; what a
command reads, writes and prints with is imported when it runs, so ``ink-tui search`` never pays
for what ``ink-tui check`` needs. None of them imports Textual (an import contract).
"""
