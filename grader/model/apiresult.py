"""One API test's judgement (:mod:`grader.apitests`): its name, group, points and the student's message."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from grader.model.base import Flag, NonEmptyText, NonNegative, Record, Text, record

Group = Literal["correctness", "memory", "timing", "api"]


@record
class ApiResult(Record):
    """A named API test of one submission: passed or not, with its share of the API part's points."""

    name: NonEmptyText = Field(description="The test's name, e.g. board.twin.random.")
    group: Group
    title: Text = Field(default="", description="What the test checks.")
    passed: Flag
    points: NonNegative
    max_points: NonNegative
    message: Text = Field(description="Why it failed (the method, the board or its size and seed, "
                                                 "expected and found), or how long it took.")
