"""The Work Center: durable WorkItems (docs/work-center.md "Work Center").

A WorkItem is durable execution, not another session: a contract (goal, acceptance
criteria, constraints, roster, working folder, budgets, where it came from), an action
graph and the runs of its actions. ``model`` and ``graph`` hold the rules and import
nothing heavy; ``executor`` runs a WorkItem as a DBOS Transact workflow and is the only
module that imports ``dbos`` (lazily: never on the window's or a plain command's path).
"""
