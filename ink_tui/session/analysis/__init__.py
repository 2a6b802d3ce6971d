"""Analyses of a branch: what it changed in the files (and the diffs), its playback at the
recorded pace, how long each turn took, and its subagents (task calls' child sessions).
"""
