"""Hostile submission: uses the names the grader uses for itself (.tmp, .grader/) and ships a
stale input.txt and an output.txt that would pass for an answer, then writes nothing.

Expected: every case NO ("output.txt was not created"): the grader's own files do not
collide with the student's (never a JE), and a shipped output.txt is not the run's answer.
"""
