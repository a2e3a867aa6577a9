"""Subcommands of the ``cardrules`` command line, one module per group.

To add a subcommand, add a module here that defines ``COMMANDS``, a list of
:class:`cardrules.cli.Command`; :func:`cardrules.cli.main` finds it by itself.
Example::

    from cardrules.cli import Command

    def _configure(p):
        p.add_argument("variant")

    def _run(args):
        print(args.variant)
        return 0

    COMMANDS = [Command("echo", "print a variant name", _configure, _run)]

A command that replaces an existing one (a real ``demo``, say) gives itself a
higher ``priority``.
"""
