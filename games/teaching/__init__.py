"""Teaching (issue #28): hints at practice tables and, to come, reviews of a deal and the
course of lessons. It stands beside the clubs, above the services: it reads tables through
them and asks the bots (games/bots/advice.py) for their judgement; it never writes a game row.
"""
