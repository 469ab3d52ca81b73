"""``seven-seconds completion SHELL``: the shell completion script, made by shtab from the command line's own parser,
so it completes every command, option and choice the program knows.

    seven-seconds completion bash > ~/.local/share/bash-completion/completions/seven-seconds
    seven-seconds completion zsh > ~/.zfunc/_seven-seconds      # a folder on $fpath
"""

from __future__ import annotations

from ..i18n import _

SHELLS = ("bash", "zsh", "tcsh")


def register(sub) -> None:
    p = sub.add_parser("completion", help=_("print the shell completion script (bash, zsh or tcsh)"),
                       description=_("Print the completion script of a shell; save it where the shell reads "
                                   "completions (bash: ~/.local/share/bash-completion/completions/seven-seconds)."))
    p.add_argument("shell", choices=SHELLS)
    p.set_defaults(run=run)


def run(args) -> int:
    # lazy: shtab is needed by this command alone
    import shtab

    # lazy: loaded only when this command or option runs, so the command line starts fast
    from .main import COMMAND_MODULES, PROG, build_parser

    parser = build_parser(COMMAND_MODULES)
    print(shtab.complete(parser, shell=args.shell, root_prefix=PROG.replace("-", "_")))
    return 0
