"""What the catalog's own words say of a verb and of a column: "the prize money it won" makes winning a thing of prize
money, so "the pigeon that won the X National" is not followed by the race's entries; "spent_gbp" is the spending
(an irregular form, which no prefix match finds), not the spending limit. Each was answered wrong and verified in the
twenty-first held-out pair (runs/fresh21: pigeon_racing, campaign_finance). A small catalog of our own, whole runs
offline."""

from __future__ import annotations

import pytest
from catalogs import ask, write_catalog

RACE = '''@tool("get_race_results", "The result sheet of a race: every entry with its pigeon, the loft it flew for, its finishing position and prize money in pounds.").
@param("race", "string", "Name of the race").
@bind("entries", "csv", "data", "entries.csv").
@mapping("entries", 0, "race", "string"). @mapping("entries", 1, "pigeon", "string").
@mapping("entries", 2, "loft", "string"). @mapping("entries", 3, "position", "int").
@mapping("entries", 4, "prize_gbp", "float").
@output("race_result").
@mapping("race_result", 0, "race", "string"). @mapping("race_result", 1, "pigeon", "string").
@mapping("race_result", 2, "loft", "string"). @mapping("race_result", 3, "position", "int").
@mapping("race_result", 4, "prize_gbp", "float").
@role("race_result", "pigeon", "entity"). @role("race_result", "prize_gbp", "amount").
@label("race_result", "position", "finishing position"). @unit("race_result", "prize_gbp", "GBP").
race_result($race, P, L, N, M) :- entries($race, P, L, N, M).
'''
PIGEON = '''@tool("get_pigeon_results", "Races a pigeon was entered in: race, its finishing position and the prize money it won in pounds.").
@param("pigeon", "string", "Name of the pigeon").
@bind("entries", "csv", "data", "entries.csv").
@mapping("entries", 0, "race", "string"). @mapping("entries", 1, "pigeon", "string").
@mapping("entries", 2, "loft", "string"). @mapping("entries", 3, "position", "int").
@mapping("entries", 4, "prize_gbp", "float").
@output("pigeon_result").
@mapping("pigeon_result", 0, "pigeon", "string"). @mapping("pigeon_result", 1, "race", "string").
@mapping("pigeon_result", 2, "position", "int"). @mapping("pigeon_result", 3, "prize_gbp", "float").
@role("pigeon_result", "prize_gbp", "amount"). @unit("pigeon_result", "prize_gbp", "GBP").
@label("pigeon_result", "position", "finishing position").
pigeon_result($pigeon, R, N, M) :- entries(R, $pigeon, L, N, M).
'''
LOFT = '''@tool("get_loft_info", "A loft's profile: the fancier who keeps it, its town and its capacity (the most birds it may house).").
@param("loft", "string", "Name of the loft").
@bind("lofts", "csv", "data", "lofts.csv").
@mapping("lofts", 0, "loft", "string"). @mapping("lofts", 1, "fancier", "string"). @mapping("lofts", 2, "town", "string").
@mapping("lofts", 3, "capacity", "int").
@output("loft_info").
@mapping("loft_info", 0, "loft", "string"). @mapping("loft_info", 1, "fancier", "string").
@mapping("loft_info", 2, "town", "string"). @mapping("loft_info", 3, "capacity", "int").
@role("loft_info", "loft", "entity"). @role("loft_info", "capacity", "limit").
loft_info($loft, F, T, C) :- lofts($loft, F, T, C).
'''
HOUSED = '''@tool("get_loft_birds", "Birds housed at a loft: each pigeon and its sex.").
@param("loft", "string", "Name of the loft").
@bind("birds", "csv", "data", "birds.csv").
@mapping("birds", 0, "pigeon", "string"). @mapping("birds", 1, "loft", "string"). @mapping("birds", 2, "sex", "string").
@output("loft_bird").
@mapping("loft_bird", 0, "loft", "string"). @mapping("loft_bird", 1, "pigeon", "string").
@mapping("loft_bird", 2, "sex", "string").
@role("loft_bird", "pigeon", "entity").
loft_bird($loft, P, S) :- birds(P, $loft, S).
'''
BIRD = '''@tool("get_pigeon_info", "A pigeon's profile: its loft and its sex (cock or hen).").
@param("pigeon", "string", "Name of the pigeon").
@bind("birds", "csv", "data", "birds.csv").
@mapping("birds", 0, "pigeon", "string"). @mapping("birds", 1, "loft", "string"). @mapping("birds", 2, "sex", "string").
@output("pigeon_info").
@mapping("pigeon_info", 0, "pigeon", "string"). @mapping("pigeon_info", 1, "loft", "string").
@mapping("pigeon_info", 2, "sex", "string").
@role("pigeon_info", "pigeon", "entity"). @role("pigeon_info", "sex", "category").
pigeon_info($pigeon, L, S) :- birds($pigeon, L, S).
'''
SEAT = '''@tool("get_constituency_info", "A constituency's campaign: its candidate and the candidate's election agent.").
@param("constituency", "string", "Name of the constituency").
@bind("people", "csv", "data", "people.csv").
@mapping("people", 0, "constituency", "string"). @mapping("people", 1, "candidate", "string").
@mapping("people", 2, "agent", "string").
@output("constituency_info").
@mapping("constituency_info", 0, "constituency", "string"). @mapping("constituency_info", 1, "candidate", "string").
@mapping("constituency_info", 2, "agent", "string").
@role("constituency_info", "constituency", "entity"). @label("constituency_info", "agent", "election agent").
constituency_info($constituency, C, A) :- people($constituency, C, A).
'''
GROUP = '''@tool("get_club_group", "A racing club and every club under it, directly or through other clubs, each as a member club, with its town.").
@param("club", "string", "Name of the club").
@bind("clubs", "csv", "data", "clubs.csv").
@mapping("clubs", 0, "club", "string"). @mapping("clubs", 1, "parent_club", "string"). @mapping("clubs", 2, "town", "string").
@output("club_group").
@mapping("club_group", 0, "club", "string"). @mapping("club_group", 1, "member_club", "string").
@mapping("club_group", 2, "town", "string").
@role("club_group", "member_club", "entity").
member($club).
member(C) :- member(P), clubs(C, P, T).
club_group($club, M, T) :- member(M), clubs(M, P, T).
'''
FINDS = '''@tool("get_site_finds", "Finds recorded at a dig site: find id, material (pottery, bone or flint), weight in grams and density in g/cm3.").
@param("site", "string", "Name of the site").
@bind("finds", "csv", "data", "finds.csv").
@mapping("finds", 0, "find_id", "string"). @mapping("finds", 1, "site", "string"). @mapping("finds", 2, "material", "string").
@mapping("finds", 3, "weight_g", "float"). @mapping("finds", 4, "density", "float").
@output("site_find").
@mapping("site_find", 0, "site", "string"). @mapping("site_find", 1, "find_id", "string").
@mapping("site_find", 2, "material", "string"). @mapping("site_find", 3, "weight_g", "float").
@mapping("site_find", 4, "density", "float").
@role("site_find", "find_id", "entity"). @role("site_find", "material", "category").
@unit("site_find", "weight_g", "g"). @unit("site_find", "density", "g/cm3").
site_find($site, I, M, W, D) :- finds(I, $site, M, W, D).
'''
SPENDING = '''@tool("get_campaign_spending", "For every constituency campaign: the total it has spent in pounds and its legal spending limit in pounds.").
@bind("seats", "csv", "data", "seats.csv").
@mapping("seats", 0, "constituency", "string"). @mapping("seats", 1, "spending_limit_gbp", "float").
@bind("expenses", "csv", "data", "expenses.csv").
@mapping("expenses", 0, "expense_id", "string"). @mapping("expenses", 1, "constituency", "string").
@mapping("expenses", 2, "category", "string"). @mapping("expenses", 3, "amount_gbp", "float").
@output("campaign_spending").
@mapping("campaign_spending", 0, "constituency", "string"). @mapping("campaign_spending", 1, "spent_gbp", "float").
@mapping("campaign_spending", 2, "spending_limit_gbp", "float").
@role("campaign_spending", "constituency", "entity"). @role("campaign_spending", "spent_gbp", "amount").
@role("campaign_spending", "spending_limit_gbp", "limit").
@label("campaign_spending", "spent_gbp", "total spent"). @label("campaign_spending", "spending_limit_gbp", "spending limit").
@unit("campaign_spending", "spent_gbp", "GBP"). @unit("campaign_spending", "spending_limit_gbp", "GBP").
spent(S, T) :- expenses(I, S, C, A), T = sum(A).
campaign_spending(S, T, L) :- spent(S, T), seats(S, L).
'''
EXPENSES = '''@tool("get_campaign_expenses", "Expenses a constituency campaign incurred: expense id, spending category (leaflets, advertising or events) and amount in pounds.").
@param("constituency", "string", "Name of the constituency").
@bind("expenses", "csv", "data", "expenses.csv").
@mapping("expenses", 0, "expense_id", "string"). @mapping("expenses", 1, "constituency", "string").
@mapping("expenses", 2, "category", "string"). @mapping("expenses", 3, "amount_gbp", "float").
@output("campaign_expense").
@mapping("campaign_expense", 0, "constituency", "string"). @mapping("campaign_expense", 1, "expense_id", "string").
@mapping("campaign_expense", 2, "category", "string"). @mapping("campaign_expense", 3, "amount_gbp", "float").
@role("campaign_expense", "expense_id", "entity"). @role("campaign_expense", "category", "category").
@role("campaign_expense", "amount_gbp", "amount"). @unit("campaign_expense", "amount_gbp", "GBP").
campaign_expense($constituency, I, C, A) :- expenses(I, $constituency, C, A).
'''
# Kestrel Vale spent 1,000 of a 2,000 limit, 300 of it on leaflets (30 % of its spending, 15 % of its limit)
EXPENSE_ROWS = """expense_id,constituency,category,amount_gbp
EX1,Kestrel Vale,leaflets,300.0
EX2,Kestrel Vale,advertising,500.0
EX3,Kestrel Vale,events,200.0
EX4,Ashby Downs,leaflets,400.0
EX5,Ashby Downs,events,400.0
"""


@pytest.fixture(scope="module")
def catalog(tmp_path_factory):
    return write_catalog(
        tmp_path_factory.mktemp("words"),
        {"get_race_results": RACE, "get_pigeon_results": PIGEON, "get_loft_info": LOFT,
         "get_campaign_spending": SPENDING, "get_campaign_expenses": EXPENSES, "get_pigeon_info": BIRD,
         "get_constituency_info": SEAT, "get_loft_birds": HOUSED, "get_club_group": GROUP,
         "get_site_finds": FINDS},
        {"entries.csv": "race,pigeon,loft,position,prize_gbp\nBourges National,Silver Ranger,Hill Loft,3,50.0\n"
                        "Bourges National,Blue Streak,Vale Loft,1,400.0\nBourges National,Storm Flyer,Moor Loft,2,150.0\n"
                        "Saintes Marathon,Silver Ranger,Hill Loft,2,120.0\n",
         "lofts.csv": "loft,fancier,town,capacity\nHill Loft,Roy Gedge,Hull,1\nVale Loft,Jean Howes,Leeds,3\n"
                      "Moor Loft,Alan Peck,York,2\n",
         "seats.csv": "constituency,spending_limit_gbp\nKestrel Vale,2000.0\nAshby Downs,1500.0\n",
         "expenses.csv": EXPENSE_ROWS,
         "birds.csv": "pigeon,loft,sex\nSilver Ranger,Hill Loft,cock\nBlue Streak,Vale Loft,hen\nStorm Flyer,Moor Loft,hen\n"
                      "Red Baron,Hill Loft,cock\n",
         "clubs.csv": "club,parent_club,town\nFenland Federation,,Ely\nWisbech Club,Fenland Federation,Wisbech\n"
                      "March Club,Fenland Federation,March\nChatteris Club,March Club,Chatteris\n",
         "finds.csv": "find_id,site,material,weight_g,density\nF1,Mill Meadow,pottery,120.0,2.4\n"
                      "F2,Mill Meadow,pottery,35.5,1.9\nF3,Mill Meadow,bone,20.0,1.8\nF4,Mill Meadow,flint,60.0,2.6\n"
                      "F5,Long Barrow,pottery,80.0,2.2\n",
         "people.csv": "constituency,candidate,agent\nKestrel Vale,Naomi Pettifer,Owen Strachan\n"
                       "Ashby Downs,Samuel Okafor,Bridget Lowe\n"})


def test_a_verb_the_catalog_says_of_another_object_is_not_followed(catalog):
    # the catalog says "the prize money it won": which pigeon won the race (position 1) is nothing it says; the race's
    # entries are every pigeon that flew it
    result = ask("Which fancier keeps the pigeon that won the Bourges National?", catalog)
    assert not result.verified, result.answer
    assert "'win'" in result.answer and "money" in result.answer, result.answer
    # how it won ("outright") is a condition no tool places, whatever entity is near it
    result = ask("Has Silver Ranger ever won a race outright?", catalog)
    assert not result.verified, result.answer


def test_a_verb_with_a_preposition_is_the_tools_relation(catalog):
    # "the loft it flew for": "for" is left at the end, the loft is no object of flying
    result = ask("Which pigeons flew in the Bourges National?", catalog)
    assert result.verified, result.answer
    assert sorted(result.ctx.answer_values) == ["Blue Streak", "Silver Ranger", "Storm Flyer"], result.answer


def test_a_total_of_a_limit_the_words_do_not_name_is_refused(catalog):
    # "spent" names spent_gbp only as an irregular form of "spend"; a sum of the spending limit is not verified
    result = ask("What has the Kestrel Vale campaign spent altogether, in pounds?", catalog)
    assert result.verified == (result.ctx.answer_values == [1000.0]), result.answer
    assert result.verified or "spending_limit_gbp" in result.answer, result.answer


def test_a_share_of_the_spending_is_of_what_was_spent_not_of_the_limit(catalog):
    result = ask("What percentage of the Kestrel Vale campaign's spending went on leaflets?", catalog)
    assert result.verified, result.answer
    assert [round(v, 3) for v in result.ctx.answer_values] == [0.3], result.answer


def test_irregular_verbs_by_the_lemmatizer():
    from vadaorchestra.agents.question.parse import irregular_verb

    assert [irregular_verb(w) for w in ("spent", "sold", "won", "held")] == ["spend", "sell", "win", "hold"]
    # regular forms, which a prefix match finds, and words that are no verb form
    assert [irregular_verb(w) for w in ("spending", "owed", "limit", "gbp", "shares")] == [None] * 5


def test_a_kind_of_the_joined_tools_rows_is_what_the_join_reads(catalog):
    result = ask("Which of the pigeons that flew in the Bourges National are hens?", catalog)
    assert result.verified, result.answer
    assert sorted(result.ctx.answer_values) == ["Blue Streak", "Storm Flyer"], result.answer


def test_a_role_given_with_as_is_what_is_asked(catalog):
    # the agent, not the candidate (the first person of the row)
    result = ask("Who is acting as election agent for the Ashby Downs campaign?", catalog)
    assert result.verified and result.ctx.answer_values == ["Bridget Lowe"], result.answer


def test_at_the_moment_is_the_present_state_the_data_are(catalog):
    result = ask("Who keeps Hill Loft at the moment?", catalog)
    assert result.verified and result.ctx.answer_values == ["Roy Gedge"], result.answer


def test_a_limit_in_things_its_description_says_counts_them(catalog):
    # "its capacity (the most birds it may house)": Hill Loft houses two birds against a capacity of one
    result = ask("Is Hill Loft within its capacity?", catalog)
    assert result.verified, result.answer
    assert result.answer.startswith("No"), result.answer
    result = ask("Is Vale Loft within its capacity?", catalog)
    assert result.verified and result.answer.startswith("Yes"), result.answer


def test_a_chain_of_things_leaves_out_the_thing_asked_about(catalog):
    # the tool lists the federation itself as a member of its own group; it is none of the clubs under it
    result = ask("Which member clubs does Fenland Federation have, directly or through other clubs?", catalog)
    assert result.verified, result.answer
    assert sorted(result.ctx.answer_values) == ["Chatteris Club", "March Club", "Wisbech Club"], result.answer


def test_pieces_of_a_kind_count_the_things_of_that_kind(catalog):
    result = ask("How many pieces of pottery were found at Mill Meadow?", catalog)
    assert result.verified and result.ctx.answer_values == [2], result.answer


def test_a_unit_written_with_a_slash_is_the_conditions(catalog):
    result = ask("Which finds at Mill Meadow have a density above 2 g/cm3?", catalog)
    assert result.verified, result.answer
    assert sorted(result.ctx.answer_values) == ["F1", "F4"], result.answer



@pytest.mark.parametrize("question, expected", [
    ("Which finds at Mill Meadow weigh more than 50 g?", ["F1", "F4"]),
    ("Which finds at Mill Meadow weigh more than 2 kg?", None),  # in g: 2 compared with grams is no 2 kg
])
def test_a_condition_in_another_unit_than_its_column_is_refused(catalog, question, expected):
    result = ask(question, catalog)
    if expected is None:
        assert not result.verified and "kg" in result.answer, result.answer
    else:
        assert result.verified and sorted(result.ctx.answer_values) == expected, result.answer


def test_those_things_of_a_count_are_the_things_counted(catalog):
    result = ask("How many expenses did the Kestrel Vale campaign incur, and what did those expenses cost in total?",
                 catalog)
    assert result.verified, result.answer
    assert result.ctx.answer_parts == [[3], [1000.0]], result.answer
