"""Audit of a run's logical trace with nothing of the run's machinery: the trace as one program (``export``).

Above the agents (it reads their traces) and beside ``eval``; it reads catalog programs and runs the engines
directly, which the agents never do.
"""
