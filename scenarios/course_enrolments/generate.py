"""A small held-out catalog of another domain (a university's faculties, departments, courses, their prerequisites,
students, their enrolments and the instructors who teach each course in each term), with questions whose answers are
computed here from the data, in plain Python.

Written before any tuning of the LLM policy on its behaviour, and kept as it is: it measures how the policy and its
prompts carry over to a catalog they were not written with (``vadaorchestra eval course_enrolments``).

Conventions of the gold answers:

- An **enrolment** is one row of ``enrolments.csv``: a student, a course, a term (``2025-1`` or ``2025-2``) and the
  grade points of that enrolment (0 to 4 in steps of 0.5). A student who failed a course in 2025-1 may retake it in
  2025-2: that is two enrolments of one student. "How many enrolments" counts rows; "how many students" counts
  distinct students; "how many courses" counts distinct courses.
- **Totals sum every row**: many enrolments share one grade-points value and many courses share one credit value, so
  a sum that merges equal values is wrong. A student's total credits sum the credits of every enrolment row (the
  total-credit questions are asked only of students without a retake, so counting a course once or per enrolment
  agree).
- A **share** is a fraction (0 to 1, or above 1 when a limit is exceeded), the exact quotient: enrolments in a term /
  the course's ``seat_capacity``, credits of a faculty's courses / the faculty's ``credit_cap``, enrolments of one
  programme / all enrolments of a course. Every such quotient here is a short terminating decimal (0.9, 0.625).
  Exact match compares numbers, not units: ``90 %`` does not match ``0.9``.
- **Limits are strict**: a course is oversubscribed in a term when its enrolments in that term are strictly more
  than its ``seat_capacity`` (a course exactly at capacity is not); a faculty exceeds its ``credit_cap`` when the
  credits of all courses of all its departments sum to strictly more than the cap. "More than N credits" is strict
  too, and "fewer than N seats" is strict.
- **Groups**: a faculty's courses are the courses of the departments that belong to it (``departments.csv``); no
  single department's credits exceed its faculty's cap, so a faculty breach shows only on the whole group.
- **Prerequisites**: ``prerequisites.csv`` lists the direct prerequisites (a DAG four levels deep). "Directly"
  means those rows; "directly or indirectly" is their transitive closure (each course once).
- Question types: ``generic`` reads values off one tool's rows; ``count`` is one number aggregated over one tool's
  rows (a count, a sum, a ratio of two counts); ``multi-hop`` combines the rows of two or more tools.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from pathlib import Path

TERMS = ["2025-1", "2025-2"]
# faculty -> (credit cap: the most credits its departments' courses may carry in total, departments)
FACULTIES = {
    "Faculty of Science": (80, ["Mathematics", "Physics", "Chemistry"]),
    "Faculty of Technology": (50, ["Informatics", "Electrical Engineering"]),
    "Faculty of Arts": (20, ["Historical Studies", "Philosophy"]),
}
# course -> (department, credits, seat capacity per term, direct prerequisites)
COURSES = {
    "Calculus": ("Mathematics", 6, 40, []),
    "Linear Algebra": ("Mathematics", 6, 40, []),
    "Real Analysis": ("Mathematics", 8, 10, ["Calculus"]),
    "Differential Equations": ("Mathematics", 6, 16, ["Calculus", "Linear Algebra"]),
    "Probability Theory": ("Mathematics", 5, 10, ["Calculus"]),
    "Numerical Methods": ("Mathematics", 5, 8, ["Differential Equations", "Programming Fundamentals"]),
    "Classical Mechanics": ("Physics", 8, 20, ["Calculus"]),
    "Electromagnetism": ("Physics", 8, 16, ["Classical Mechanics", "Differential Equations"]),
    "Quantum Mechanics": ("Physics", 10, 8, ["Electromagnetism", "Linear Algebra"]),
    "Thermodynamics": ("Physics", 5, 16, ["Classical Mechanics", "Probability Theory"]),
    "Stoichiometry": ("Chemistry", 5, 25, []),
    "Organic Synthesis": ("Chemistry", 6, 10, ["Stoichiometry"]),
    "Spectroscopy": ("Chemistry", 8, 8, ["Organic Synthesis", "Quantum Mechanics"]),
    "Programming Fundamentals": ("Informatics", 6, 40, []),
    "Data Structures": ("Informatics", 6, 25, ["Programming Fundamentals"]),
    "Algorithm Design": ("Informatics", 8, 20, ["Data Structures", "Formal Logic"]),
    "Machine Learning": ("Informatics", 8, 16, ["Algorithm Design", "Probability Theory", "Linear Algebra"]),
    "Circuit Theory": ("Electrical Engineering", 6, 20, ["Calculus"]),
    "Signal Processing": ("Electrical Engineering", 6, 16, ["Circuit Theory", "Differential Equations"]),
    "Control Systems": ("Electrical Engineering", 5, 10, ["Signal Processing"]),
    "Medieval Europe": ("Historical Studies", 5, 25, []),
    "Historiography": ("Historical Studies", 5, 10, ["Medieval Europe"]),
    "Formal Logic": ("Philosophy", 5, 25, []),
    "Epistemology": ("Philosophy", 5, 16, ["Formal Logic"]),
}
# programme -> department affinity (weight of a course of that department when a student picks courses)
PROGRAMMES = {
    "Data Science": {"Informatics": 5, "Mathematics": 4, "Philosophy": 1, "Physics": 1},
    "Robotics": {"Electrical Engineering": 5, "Informatics": 3, "Physics": 3, "Mathematics": 3},
    "Quantitative Finance": {"Mathematics": 5, "Informatics": 3, "Physics": 1, "Historical Studies": 1},
    "Environmental Studies": {"Chemistry": 5, "Physics": 3, "Historical Studies": 2, "Mathematics": 2},
    "Liberal Arts": {"Historical Studies": 5, "Philosophy": 5, "Mathematics": 1, "Chemistry": 1},
    "Natural Sciences": {"Physics": 5, "Mathematics": 4, "Chemistry": 3},
}
# instructor -> departments they teach in
INSTRUCTORS = {
    "Lena Hart": ["Mathematics"],
    "Marcus Oyelaran": ["Mathematics", "Informatics"],
    "Ingrid Solberg": ["Physics"],
    "Tomasz Wierzbicki": ["Physics", "Electrical Engineering"],
    "Helena Varga": ["Chemistry"],
    "Samuel Achterberg": ["Informatics"],
    "Renata Cruz": ["Electrical Engineering", "Informatics"],
    "Felix Drummond": ["Historical Studies"],
    "Ayesha Qureshi": ["Philosophy"],
    "Dorothea Lang": ["Philosophy", "Historical Studies"],
}
FIRST = ["Amara", "Bastian", "Chiara", "Dmitri", "Elif", "Farid", "Greta", "Hiroshi", "Ines", "Jonah", "Kavya",
         "Lukas", "Mireille", "Nikolai", "Oona", "Pablo", "Quentin", "Rosalind", "Sanjay", "Tamsin", "Ulrich",
         "Valentina", "Wen", "Ximena", "Yusuf", "Zofia", "Anders", "Beatriz", "Cormac", "Daniela", "Emeka", "Freya",
         "Gustavo", "Hana", "Ibrahim", "Johanna", "Kenji", "Leonie", "Mateo", "Nadia", "Oskar", "Priya", "Rafael",
         "Saoirse", "Tobias", "Ursula", "Viktor", "Wilhelmina", "Yara", "Zain", "Aurelio", "Brigitte", "Cyrus",
         "Delphine", "Esteban", "Fatima", "Gideon", "Helga", "Ivo", "Julia"]
LAST = ["Okafor", "Lindqvist", "Moretti", "Petrov", "Yilmaz", "Haddad", "Sorensen", "Tanaka", "Ferreira", "Whitfield",
        "Raman", "Brandt", "Delacroix", "Volkov", "Virtanen", "Castillo", "Marchand", "Ashworth", "Mehta", "Trevelyan",
        "Hoffmann", "Rossi", "Zhang", "Navarro", "Demir", "Kowalska", "Berg", "Souza", "Byrne", "Esposito", "Adeyemi",
        "Nilsson", "Pereira", "Kobayashi", "Rahman", "Albrecht", "Sato", "Fischer", "Ortega", "Benali", "Lindgren",
        "Kapoor", "Mendes", "Gallagher", "Keller", "Wagner", "Horvath", "Van Dijk", "Nakamura", "Siddiqui",
        "Fontaine", "Richter", "Kaur", "Duval", "Salazar", "Aziz", "Nowak", "Steiner", "Markovic", "Quinn"]
GRADES = [1.0, 1.5, 2.0, 2.5, 3.0, 3.0, 3.5, 3.5, 4.0]

HEADERS = {
    "faculties": ["faculty", "credit_cap"],
    "departments": ["department", "faculty"],
    "courses": ["course", "department", "credits", "seat_capacity"],
    "prerequisites": ["course", "prerequisite"],
    "students": ["student", "programme"],
    "enrolments": ["student", "course", "term", "grade_points"],
    "teaching": ["instructor", "course", "term"],
}


def generate(seed: int = 23) -> dict[str, list[list]]:
    rng = random.Random(seed)
    faculties = [[f, cap] for f, (cap, _d) in FACULTIES.items()]
    departments = [[d, f] for f, (_c, ds) in FACULTIES.items() for d in ds]
    courses = [[c, d, cr, seats] for c, (d, cr, seats, _p) in COURSES.items()]
    prerequisites = [[c, p] for c, (_d, _cr, _s, ps) in COURSES.items() for p in ps]
    teaching = []
    for c, (d, _cr, _s, _p) in COURSES.items():
        pool = [i for i, ds in INSTRUCTORS.items() if d in ds]
        for t in TERMS:
            teaching.append([rng.choice(pool), c, t])
    lasts = LAST[:]
    rng.shuffle(lasts)
    names = [f"{f} {lname}" for f, lname in zip(FIRST, lasts, strict=True)]
    progs = list(PROGRAMMES)
    students = [[n, progs[i % len(progs)]] for i, n in enumerate(names)]
    level = {}

    def lvl(c: str) -> int:
        if c not in level:
            level[c] = 1 + max((lvl(p) for p in COURSES[c][3]), default=-1)
        return level[c]

    enrolments = []
    retakes = 0
    for s, prog in students:
        weights = {c: PROGRAMMES[prog].get(d, 0) * (3 if lvl(c) == 0 else 2 if lvl(c) == 1 else 1)
                   for c, (d, _cr, _se, _p) in COURSES.items()}
        pool = [c for c, w in weights.items() if w > 0]
        chosen: list[str] = []
        for _ in range(min(rng.randint(4, 6), len(pool))):
            c = rng.choices(pool, [weights[x] for x in pool])[0]
            pool.remove(c)
            chosen.append(c)
        term = {c: rng.choice(TERMS) for c in chosen}
        for c in chosen:  # a prerequisite taken in the same plan comes first
            for p in COURSES[c][3]:
                if p in term:
                    term[p], term[c] = "2025-1", "2025-2"
        for c in sorted(chosen, key=list(COURSES).index):
            g = rng.choice(GRADES)
            enrolments.append([s, c, term[c], g])
            if g == 1.0 and term[c] == "2025-1" and retakes < 4:
                retakes += 1
                enrolments.append([s, c, "2025-2", rng.choice(GRADES[2:])])
    return {"faculties": faculties, "departments": departments, "courses": courses, "prerequisites": prerequisites,
            "students": students, "enrolments": enrolments, "teaching": teaching}


class _View:
    """The tables indexed the way the questions read them."""

    def __init__(self, data: dict[str, list[list]]) -> None:
        self.course = {c: (d, cr, seats) for c, d, cr, seats in data["courses"]}
        self.cap = {f: cap for f, cap in data["faculties"]}
        self.depts = defaultdict(list)
        for d, f in data["departments"]:
            self.depts[f].append(d)
        self.direct = defaultdict(list)
        for c, p in data["prerequisites"]:
            self.direct[c].append(p)
        self.programme = {s: p for s, p in data["students"]}
        self.instructor = {(c, t): i for i, c, t in data["teaching"]}
        self.by_course = defaultdict(list)  # course -> [(student, term, grade)]
        self.by_student = defaultdict(list)  # student -> [(course, term, grade)]
        for s, c, t, g in data["enrolments"]:
            self.by_course[c].append((s, t, g))
            self.by_student[s].append((c, t, g))

    def closure(self, course: str) -> set[str]:
        out: set[str] = set()
        todo = list(self.direct[course])
        while todo:
            p = todo.pop()
            if p not in out:
                out.add(p)
                todo += self.direct[p]
        return out

    def faculty_courses(self, faculty: str) -> list[str]:
        return [c for c, (d, _cr, _s) in self.course.items() if d in self.depts[faculty]]

    def faculty_credits(self, faculty: str) -> int:
        return sum(self.course[c][1] for c in self.faculty_courses(faculty))

    def in_term(self, course: str, term: str) -> int:
        return sum(1 for _s, t, _g in self.by_course[course] if t == term)

    def record(self, student: str) -> list[tuple[str, str, str, int, float]]:
        """(course, term, instructor, credits, grade) of every enrolment of a student."""
        return [(c, t, self.instructor[(c, t)], self.course[c][1], g) for c, t, g in self.by_student[student]]

    def oversubscribed(self, faculty: str, term: str) -> list[str]:
        return sorted(c for c in self.faculty_courses(faculty) if self.in_term(c, term) > self.course[c][2])


def _terminating(num: int, den: int) -> bool:
    from math import gcd

    den //= gcd(num, den)
    for p in (2, 5):
        while den % p == 0:
            den //= p
    return den == 1


def check(data: dict[str, list[list]]) -> None:
    """The properties the questions rely on."""
    v = _View(data)
    names = ([f for f, _c in data["faculties"]] + [d for d, _f in data["departments"]] + list(v.course)
             + list(PROGRAMMES) + list(INSTRUCTORS) + list(v.programme))
    assert len(names) == len(set(names)), "a name is used twice"
    low = [n.casefold() for n in names]
    clash = [(a, b) for a in low for b in low if a != b and a in b]
    assert not clash, f"a name is part of another: {clash[:3]}"
    keys = [(s, c, t) for s, c, t, _g in data["enrolments"]]
    assert len(keys) == len(set(keys)), "a student enrolled twice in one course in one term"
    assert 200 <= len(keys) <= 400 and 40 <= len(v.programme) <= 80 and 15 <= len(v.course) <= 25
    depth = {}

    def level(c: str) -> int:
        if c not in depth:
            depth[c] = 1 + max((level(p) for p in v.direct[c]), default=-1)
        return depth[c]

    assert max(level(c) for c in v.course) == 4, "the prerequisite DAG is not four levels deep"
    for f in v.cap:
        per_dept = defaultdict(int)
        for c in v.faculty_courses(f):
            per_dept[v.course[c][0]] += v.course[c][1]
        assert all(x <= v.cap[f] for x in per_dept.values()), f"{f}: a single department exceeds the cap"
    assert [f for f in v.cap if v.faculty_credits(f) > v.cap[f]] == ["Faculty of Science"]
    assert any(v.faculty_credits(f) == v.cap[f] for f in v.cap), "no faculty exactly at its cap"
    sci = v.oversubscribed("Faculty of Science", "2025-2")
    at_cap = [c for c in v.faculty_courses("Faculty of Science") if v.in_term(c, "2025-2") == v.course[c][2]]
    assert len(sci) >= 2 and at_cap, "Faculty of Science in 2025-2: too few breaches, or none exactly at capacity"
    assert not v.oversubscribed("Faculty of Arts", "2025-1") and v.oversubscribed("Faculty of Arts", "2025-2")
    assert any(len(e) != len({c for c, _t, _g in e}) for e in v.by_student.values()), "no retake"


def _pick(candidates: list[str], used: set[str], ok) -> str:
    """The first candidate not used yet for which ``ok`` holds."""
    for s in candidates:
        if s not in used and ok(s):
            used.add(s)
            return s
    raise AssertionError("no student fits a question")


def questions(data: dict[str, list[list]]) -> list[dict]:
    v = _View(data)
    students = [s for s, _p in data["students"]]
    used: set[str] = set()
    out = []

    def add(qtype: str, template: str, question: str, answer, complexity: int) -> None:
        out.append({"id": f"ce{len(out) + 1:03d}", "type": qtype, "template": template, "question": question,
                    "answer": answer, "complexity": max(1, complexity)})

    # lookup: one attribute of one course
    add("generic", "lookup", "Which department offers Thermodynamics?", [v.course["Thermodynamics"][0]], 1)
    add("generic", "lookup", "How many credits is Signal Processing worth?", v.course["Signal Processing"][1], 1)
    add("generic", "lookup", "What is the seat capacity of Quantum Mechanics?", v.course["Quantum Mechanics"][2], 1)

    # list: the entities related to a named one
    rows = v.by_course["Spectroscopy"]
    add("generic", "list", "Which students are enrolled in Spectroscopy, in either term?",
        sorted({s for s, _t, _g in rows}), len(rows))
    s_list = _pick(students, used, lambda s: len(v.by_student[s]) >= 5)
    add("generic", "list", f"List the courses {s_list} has enrolled in.",
        sorted({c for c, _t, _g in v.by_student[s_list]}), len(v.by_student[s_list]))
    s_teach = _pick(students, used, lambda s: len({r[2] for r in v.record(s)}) >= 3)
    rec = v.record(s_teach)
    add("generic", "list", f"Name the instructors who have taught {s_teach}.", sorted({r[2] for r in rec}),
        2 * len(rec))

    # count: how many of something a named entity has
    rows = v.by_course["Real Analysis"]
    add("count", "count", "How many enrolments does Real Analysis have, counting both terms?", len(rows), len(rows))
    s_retake = _pick(students, used, lambda s: len(v.by_student[s]) != len({c for c, _t, _g in v.by_student[s]}))
    rows = v.by_student[s_retake]
    add("count", "count", f"What number of different courses has {s_retake} enrolled in?",
        len({c for c, _t, _g in rows}), len(rows))
    rows = v.by_course["Classical Mechanics"]
    assert len({s for s, _t, _g in rows}) < len(rows), "nobody retook Classical Mechanics"
    add("count", "count", "How many different people have enrolled in Classical Mechanics?",
        len({s for s, _t, _g in rows}), len(rows))

    # total: a sum over every row of a named entity
    def total_ok(s: str) -> bool:
        cr = [r[3] for r in v.record(s)]
        courses = [r[0] for r in v.record(s)]
        return len(courses) == len(set(courses)) and len(cr) != len(set(cr)) and len(cr) >= 5

    s_total = _pick(students, used, total_ok)
    rec = v.record(s_total)
    add("count", "total", f"What is the total number of credits {s_total} has enrolled for?",
        sum(r[3] for r in rec), len(rec))
    rows = v.by_course["Organic Synthesis"]
    assert len({g for _s, _t, g in rows}) < len(rows)
    add("count", "total", "What is the sum of the grade points awarded in Organic Synthesis over all its enrolments?",
        sum(g for _s, _t, g in rows), len(rows))
    tech = v.faculty_courses("Faculty of Technology")
    add("count", "total", "Counting every course of its departments, how many credits does the Faculty of "
        "Technology offer in total?", v.faculty_credits("Faculty of Technology"),
        len(tech) + len(v.depts["Faculty of Technology"]))

    # share: a fraction of a total or of a limit
    n, seats = v.in_term("Quantum Mechanics", "2025-2"), v.course["Quantum Mechanics"][2]
    assert _terminating(n, seats)
    add("multi-hop", "share", "What fraction of the seats of Quantum Mechanics were taken in term 2025-2?",
        n / seats, len(v.by_course["Quantum Mechanics"]) + 1)
    cr, cap = v.faculty_credits("Faculty of Technology"), v.cap["Faculty of Technology"]
    assert _terminating(cr, cap)
    add("multi-hop", "share", "What share of its credit cap does the Faculty of Technology use, counting every "
        "course of its departments?", cr / cap, len(tech) + len(v.depts["Faculty of Technology"]))
    rows = v.by_course["Machine Learning"]
    ds = sum(1 for s, _t, _g in rows if v.programme[s] == "Data Science")
    assert _terminating(ds, len(rows)) and 0 < ds < len(rows)
    add("count", "share", "What fraction of the enrolments in Machine Learning are by students of the Data Science "
        "programme?", ds / len(rows), len(rows))

    # extreme: argmax or max
    def argmax_ok(s: str) -> bool:
        g = sorted((r[2] for r in v.by_student[s]), reverse=True)
        return len(g) >= 4 and g[0] > g[1] and len({r[0] for r in v.by_student[s]}) == len(g)

    s_best = _pick(students, used, argmax_ok)
    rows = v.by_student[s_best]
    add("generic", "extreme", f"Which course earned {s_best} the highest grade points?",
        [max(rows, key=lambda r: r[2])[0]], len(rows))
    pre = v.closure("Spectroscopy")
    top = sorted(pre, key=lambda c: -v.course[c][1])
    assert v.course[top[0]][1] > v.course[top[1]][1]
    add("multi-hop", "extreme", "Among all the courses needed before Spectroscopy, directly or indirectly, which "
        "one carries the most credits?", [top[0]], 2 * len(pre))
    rows = v.by_course["Epistemology"]
    add("generic", "extreme", "What is the lowest grade-point value any student received in Epistemology?",
        min(g for _s, _t, g in rows), len(rows))

    # count or total restricted by a second named entity found in an output column
    rows = v.by_course["Quantum Mechanics"]
    ns = {s for s, _t, _g in rows if v.programme[s] == "Natural Sciences"}
    assert 0 < len(ns) < len({s for s, _t, _g in rows})
    add("count", "restricted", "How many students of the Natural Sciences programme are enrolled in Quantum "
        "Mechanics?", len(ns), len(rows))

    def instr_ok(s: str) -> bool:
        rec = v.record(s)
        per = Counter(r[2] for r in rec)
        return len(rec) >= 4 and per.most_common(1)[0][1] >= 2 and len(per) >= 2

    s_instr = _pick(students, used, instr_ok)
    rec = v.record(s_instr)
    instr = Counter(r[2] for r in rec).most_common(1)[0][0]
    mine = [r for r in rec if r[2] == instr]
    add("count", "restricted", f"How many courses did {s_instr} take with instructor {instr}?",
        len({r[0] for r in mine}), len(rec))

    def instr_total_ok(s: str) -> bool:
        rec = v.record(s)
        top = Counter(r[2] for r in rec).most_common(1)[0][0]
        grades = [r[4] for r in rec if r[2] == top]
        return instr_ok(s) and len(grades) != len(set(grades)) and len(grades) < len(rec)

    s_instr2 = _pick(students, used, instr_total_ok)
    rec = v.record(s_instr2)
    instr2 = Counter(r[2] for r in rec).most_common(1)[0][0]
    add("count", "restricted", f"What is the total of the grade points {s_instr2} earned in courses taught by "
        f"{instr2}?", sum(r[4] for r in rec if r[2] == instr2), len(rec))

    # a list restricted by a numeric condition on another tool's output
    add("multi-hop", "numeric_filter", "Which courses needed before Spectroscopy, directly or indirectly, carry more "
        "than 6 credits?", sorted(c for c in pre if v.course[c][1] > 6), 2 * len(pre))
    ml = v.direct["Machine Learning"]
    add("multi-hop", "numeric_filter", "Which direct prerequisites of Machine Learning have fewer than 25 seats?",
        sorted(c for c in ml if v.course[c][2] < 25), 2 * len(ml))

    # direct vs transitive prerequisites
    add("generic", "direct", "Which courses are direct prerequisites of Quantum Mechanics?",
        sorted(v.direct["Quantum Mechanics"]), len(v.direct["Quantum Mechanics"]))
    qm = v.closure("Quantum Mechanics")
    add("generic", "transitive", "Which courses must be completed before Quantum Mechanics, directly or indirectly?",
        sorted(qm), len(qm))
    add("generic", "direct", "List the immediate prerequisites of Control Systems.",
        sorted(v.direct["Control Systems"]), len(v.direct["Control Systems"]))
    cs = v.closure("Control Systems")
    add("count", "transitive", "Count the courses Control Systems requires, directly or indirectly.",
        len(cs), len(cs))

    # comparison with a limit stated in the data, per group found through a relation
    for faculty, term, phrase in [
        ("Faculty of Science", "2025-2", "Which courses of the {f} had more enrolments in term {t} than seats?"),
        ("Faculty of Arts", "2025-1", "Which courses in the {f} were oversubscribed in term {t}, with more "
                                      "enrolments than seats?"),
        ("Faculty of Arts", "2025-2", "Name the courses of the {f} whose enrolments in term {t} exceeded their "
                                      "seat capacity."),
    ]:
        courses = v.faculty_courses(faculty)
        add("multi-hop", "limit_group", phrase.format(f=faculty, t=term), v.oversubscribed(faculty, term),
            len(v.depts[faculty]) + 2 * len(courses) + sum(len(v.by_course[c]) for c in courses))
    facs = list(v.cap)
    add("multi-hop", "limit_group", "Of the Faculty of Science, the Faculty of Technology and the Faculty of Arts, "
        "which exceed their credit cap when every course of their departments is counted?",
        sorted(f for f in facs if v.faculty_credits(f) > v.cap[f]),
        sum(len(v.depts[f]) + len(v.faculty_courses(f)) for f in facs))
    return out


def write(folder: Path, seed: int = 23) -> None:
    from vadaorchestra.eval.datasets import write_generated

    write_generated(folder, generate(seed), check, HEADERS, questions)


if __name__ == "__main__":
    write(Path(__file__).resolve().parent)
