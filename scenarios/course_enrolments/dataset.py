"""The held-out course-enrolments question set for ``vadaorchestra eval course_enrolments`` (see ``generate.py``).

A share is scored as a fraction (0 to 1, above 1 past a limit): the gold answer of "What fraction of the seats of
Quantum Mechanics were taken in term 2025-2?" is ``0.875`` (7 enrolments, 8 seats), and exact match compares numbers
without units, so ``87.5 %`` does not match it. Limits are strict: a course exactly at its seat capacity, or a faculty
exactly at its credit cap, does not exceed it.
"""

from __future__ import annotations

from pathlib import Path

from vadaorchestra.eval.datasets import generate_missing, verbalize

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
CATALOG = HERE / "catalog"
DATA_ROOT = HERE
QUESTION_SETS = {"course_enrolments": DATA / "questions.jsonl"}
DESCRIPTION = {"course_enrolments": "held-out questions over a small catalog of another domain (a university's "
                                    "faculties, departments, courses and their prerequisites, students, enrolments "
                                    "and instructors)"}
SENTENCES = {
    "faculties.csv": "The {faculty} has a credit cap of {credit_cap}: the courses of all its departments may carry "
                     "at most {credit_cap} credits together.",
    "departments.csv": "The {department} department belongs to the {faculty}.",
    "courses.csv": "{course} is a course of the {department} department worth {credits} credits with a seat "
                   "capacity of {seat_capacity} students per term.",
    "prerequisites.csv": "{prerequisite} is a direct prerequisite of {course}.",
    "students.csv": "{student} is a student of the {programme} programme.",
    "enrolments.csv": "{student} enrolled in {course} in term {term} and received {grade_points} grade points.",
    "teaching.csv": "{instructor} taught {course} in term {term}.",
}


def ensure() -> bool:
    return generate_missing(HERE / "generate.py", [DATA / f for f in [*SENTENCES, "questions.jsonl"]], HERE)


def facts() -> list[str]:
    return verbalize(DATA, SENTENCES)
