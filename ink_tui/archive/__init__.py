"""One archive across machines: the other machines' settings (``machines``), pulling their
sessions into mirrors in Ink's layout (``sshpull``) and what a mirror knows beside them
(``mirrorstate``). No Textual; the raw session files are the truth, each viewer indexes its own
mirrors."""
