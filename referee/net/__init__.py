"""The battle service on the network: a host serving each seat its own screen over WebSockets (``host.py``), the
phone's hand and the public table pages (``static/``), and a Python client for a seat (``client.py``).

The protocol is ``docs/network.md``. Nothing here decides a rule or reads a battle's state: every intent goes
through the session's own methods, and every seat is sent the screen the session builds for it.
"""
