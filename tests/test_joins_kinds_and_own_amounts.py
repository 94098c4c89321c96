"""Refusals of the twenty-sixth and twenty-seventh held-out pairs, read after their first runs, each fixed in general:
another anchor for a join when the best one's rows hold nothing the joined tool takes ("the branches in the Wessex
district"); the asked column with the word itself over a derived one ("traders": trader, not trade_date); a number
the tool called for the entity holds, whatever verb asks it ("What hourly rate does X charge?"); an average per the
rows' own things ("per callout"); a share of the anchor's own rows, not another tool's monthly count of them; a kind
the data writes in the plural named as a modifier ("wasp callouts"); a limit compared with the amount beside it in
the same rows, named by the limit's own words; "What does X sell?" read from the description ("the goods it sells");
and a relation to a named entity ("the officers who report to X") that no tool called for X speaks of is refused.
Whole runs offline through one server each; the datasets' whole runs in the slow tier keep them too."""

from __future__ import annotations

from pathlib import Path

import pytest
from catalogs import ask

from vadaorchestra.agents.question import frame
from vadaorchestra.agents.question import parse as P

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def test_the_column_with_the_word_itself_is_asked_before_a_derived_one():
    assert frame.asked_columns(("trader",), ["market", "trade_date", "trader", "pitch_fee_gbp"]) == ["trader"]
    # (a derived word still names a column when nothing says the word itself)
    assert frame.asked_columns(("trader",), ["market", "trade_date"]) == ["trade_date"]


def test_a_singular_noun_is_looked_up_as_its_plural_too():
    assert P.noun_plural("wasp") == "wasps"
    assert "wasps" in frame.plural_text("How many wasp callouts did the York branch attend in 2024?").split()


def test_no_plural_ends_in_ss_and_passing_a_test_is_no_limit():
    assert P.noun_lemma("pass") == "pass" and P.noun_lemma("glasses") == "glass"
    assert not frame.build("How many of Sanjay Patel's learners have passed their driving test?").limit
    assert frame.build("Has any vessel passed its quota?").limit


def test_what_is_done_is_the_verb_whose_object_what_is():
    found = [{"value": "Green Basket Produce", "columns": ["traders.trader"], "parameters": ["get_trader.trader"]}]
    assert frame.what_done(frame.build("What does Green Basket Produce sell?", found, {})) == "sell"
    assert frame.what_done(frame.build("What is the capacity of Hall 2?")) is None


@pytest.mark.slow
@pytest.mark.parametrize(("dataset", "question", "expected"), [
    ("pest_control", "How many callouts did the branches in the Wessex district attend in June 2024?", [109]),
    ("pest_control", "What was the average charge per callout at the Nottingham branch in 2024?",
     [pytest.approx(162.6, abs=0.01)]),
    ("pest_control", "What percentage of the Leeds branch's callouts in 2024 were for rats?",
     [pytest.approx(0.313, abs=0.001)]),
    ("pest_control", "How many wasp callouts did the York branch attend in 2024?", [45]),
    ("street_markets", "Name the three traders who paid the most in pitch fees at Quayside Night Market in 2024.",
     ["Ife's Wraps", "The Copper Kettle Grill", "The Willow Grill"]),
    ("driving_school", "What hourly rate does Megan Lusk charge?", [52]),
    ("driving_school", "How many instructors work in the Tyne Area?", [6]),
    ("driving_school", "What percentage of the tests taken at Hollowell Test Centre in 2024 were passes?",
     [pytest.approx(0.534, abs=0.001)]),
    ("parking_enforcement", "Which car park in the Riverside district has the most spaces?", ["Dockside Multi-Storey"]),
    # (states of the work in between, each wrong and verified or refused in a whole run, kept right: a joined tool
    # called for the share's reference already holds the rows it needs, no second call doubling them; loads
    # "leaving" X are X's shipments, whatever verb the tool says, X not being a load; "X's crew" are the doers of
    # the overtime X's tool says they claimed; a rate in EUR per word is no count of words against a word cap)
    ("hospital_claims", "Ironwood Urgent Care's claims to Evergreen State Health Plan use what fraction of Evergreen "
     "State Health Plan's annual cap for Granite Peak Health?", [pytest.approx(0.125)]),
    ("freight_hubs", "What is the combined declared value of all loads leaving Gdansk Baltic Container Yard?",
     [pytest.approx(3545000.0)]),
    ("fire_rescue", "How many overtime hours did Calderbank's crew claim in February 2024?", [pytest.approx(147.5)]),
    ("translation_agency", "Which translators of the Porto office went over their monthly word cap in February 2024?",
     ["Rui Campos"]),
    # (a verb whose object is a number of the entity's own tool, by its declared unit: herd_size in cows)
    ("dairy_coop", "How many cows does Bracken Hill Farm milk?", [148]),
    ("parking_enforcement", "Which three car parks charge the highest hourly tariff?",
     ["Ashgrove Car Park", "Beacon Car Park", "Cloisters Underground"]),
    # the anchor set aside (Machine Learning's own profile) is the joined tool: its rows for the prerequisites are
    # read once it ran for them, never its first call's
    ("course_enrolments", "Which direct prerequisites of Machine Learning have fewer than 25 seats?",
     ["Algorithm Design", "Probability Theory"]),
])
def test_held_out_refusals_now_answered_and_verified(dataset, question, expected):
    result = ask(question, SCENARIOS / dataset)
    assert result.verified, result.answer
    assert sorted(result.ctx.answer_values, key=str) == sorted(expected, key=str), result.answer


@pytest.mark.slow
def test_a_limit_is_compared_with_the_amount_beside_it_that_its_own_words_name():
    result = ask("Did Isaac Fenn teach more than his monthly hours cap in March 2024?", SCENARIOS / "driving_school")
    assert result.verified, result.answer
    assert result.answer.startswith("Yes"), result.answer
    assert "GBP" not in result.answer, result.answer  # (not his hourly rate)


@pytest.mark.slow
def test_what_a_thing_does_is_read_from_the_description():
    result = ask("Who is the proprietor of Green Basket Produce, and what does it sell?", SCENARIOS / "street_markets")
    assert result.verified, result.answer
    assert result.ctx.answer_parts == [["Malcolm Ormerod"], ["produce"]], result.answer


def test_what_a_stranded_preposition_leaves_is_an_amount_asked():
    tools = {"get_lessons": {"name": "get_lessons", "output_predicate": "lesson",
                             "schema": [{"name": "fee_gbp", "type": "float"}]}}
    fr = frame.build("what did they come to in fees?", None, tools)
    assert (fr.total, fr.asks_for) == (True, ("fee",))


@pytest.mark.slow
def test_a_second_part_totals_the_first_parts_rows_said_with_a_stranded_preposition():
    result = ask("How many lessons did Tom Brannigan give in October 2024, and what did they come to in fees?",
                 SCENARIOS / "driving_school")
    assert result.verified, result.answer
    assert result.ctx.answer_parts == [[17], [pytest.approx(869)]], result.answer


@pytest.mark.slow
def test_the_things_related_to_a_named_entity_are_read_through_the_tool_that_says_the_relation():
    """"the officers who report to X": X's line of supervision (whose description says "report to"), then each
    officer's notices, counted by the column labelled "penalty charge notice"; the parse repaired where "did" was
    read as the main verb and "X issue" as a noun."""
    result = ask("How many penalty charge notices did the officers who report to Aisling Dunne issue in 2024?",
                 SCENARIOS / "parking_enforcement")
    assert result.verified, result.answer
    assert result.ctx.answer_values == [360], result.answer


@pytest.mark.slow
def test_a_relation_no_tool_called_for_the_entity_speaks_of_is_refused(monkeypatch):
    """The Verifier's own check: with the composer blind to the relation, X's own notices are counted (21); not
    verified."""
    import types

    from vadaorchestra.agents.question import compose, relations

    shim = types.SimpleNamespace(**{k: getattr(relations, k) for k in dir(relations) if not k.startswith("__")})
    shim.related_to_entity = lambda fr: []
    monkeypatch.setattr(compose, "relations", shim)
    result = ask("How many penalty charge notices did the officers who report to Aisling Dunne issue in 2024?",
                 SCENARIOS / "parking_enforcement")
    assert not result.verified, result.answer
    assert "'report' of Aisling Dunne" in result.answer and "get_officers_under" in result.answer, result.answer


def test_did_read_as_the_main_verb_is_repaired():
    question = "How much prize money did the birds of Old Forge Loft win over the whole season, in pounds?"
    at = question.index("Old Forge Loft")
    p = P.read(question, [P.Mention(at, at + len("Old Forge Loft"), "Old Forge Loft")])
    win = next(w for w in p.words if w.text == "win")
    assert (win.pos, win.dep) == ("VERB", "ROOT")
    assert [w.dep for w in p.words if w.text in ("money", "did", "birds")] == ["dobj", "aux", "nsubj"]
    assert [(w.text, w.start) for w in p.words][-3:] == [("in", 80), ("pounds", 83), ("?", 89)]


@pytest.mark.slow
def test_the_main_verb_said_only_by_tools_not_called_is_refused():
    """"passed their driving test": the tests' tools say it ("result (pass or fail)"); X's lessons counted had been
    answered, verified, in an intermediate state."""
    result = ask("How many of Sanjay Patel's learners have passed their driving test?", SCENARIOS / "driving_school")
    assert not result.verified, result.answer
