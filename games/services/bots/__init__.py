"""Bots at the table (issue #15): which seat a bot plays now (stand_ins.py), its turn, the
sweep for lost ones and the practice table (turns.py), the budget of one decision
(budget.py), when its move reaches the table (pace.py: the pause of the table's bot speed,
which also hides how long it thought), and how a bot is woken (wakeups.py).

Empty on purpose: the writer reads stand_ins.py on every command, and the turns import the
writer, so importing this package must not import the turns.
"""
