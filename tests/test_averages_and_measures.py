"""An average per month over rows that are one per month, a measure named by its unit, and a superlative's measure
kept: the twenty-fifth held-out pair (weather_network, bike_share) had "On average, how many hours of sunshine did X
get per month in 2023?" answered with the year's total, "the average length, in minutes, of trips" with the average
fare, and "Which of X's stations sits at the highest elevation?" with stations ranked by their maintenance cost — all
three verified. A small catalog of our own, whole runs offline."""

from __future__ import annotations

from pathlib import Path

import pytest
from catalogs import ask, write_catalog

from vadaorchestra.agents.question import frame

STATIONS = '''@tool("get_office_stations", "The observing stations an office runs, with each station's elevation.").
@param("office", "string", "Name of the office").
@bind("stations", "csv", "data", "stations.csv").
@mapping("stations", 0, "station", "string"). @mapping("stations", 1, "office", "string").
@mapping("stations", 2, "elevation_m", "int").
@output("office_station").
@mapping("office_station", 0, "office", "string"). @mapping("office_station", 1, "station", "string").
@mapping("office_station", 2, "elevation_m", "int").
@role("office_station", "station", "entity"). @label("office_station", "elevation_m", "elevation").
@unit("office_station", "elevation_m", "m").
office_station($office, S, E) :- stations(S, $office, E).
'''
VISITS = '''@tool("get_office_visits", "Maintenance visits to an office's stations: visit id, station, date and cost.").
@param("office", "string", "Name of the office").
@bind("visits", "csv", "data", "visits.csv").
@mapping("visits", 0, "visit_id", "string"). @mapping("visits", 1, "office", "string").
@mapping("visits", 2, "station", "string"). @mapping("visits", 3, "visit_date", "string").
@mapping("visits", 4, "cost_gbp", "float").
@output("office_visit").
@mapping("office_visit", 0, "office", "string"). @mapping("office_visit", 1, "visit_id", "string").
@mapping("office_visit", 2, "station", "string"). @mapping("office_visit", 3, "visit_date", "string").
@mapping("office_visit", 4, "cost_gbp", "float").
@role("office_visit", "visit_id", "entity"). @role("office_visit", "visit_date", "date").
@role("office_visit", "cost_gbp", "amount"). @unit("office_visit", "cost_gbp", "GBP").
office_visit($office, I, S, D, C) :- visits(I, $office, S, D, C).
'''
BUDGET = '''@tool("get_office_budget", "An office's monthly maintenance budget.").
@param("office", "string", "Name of the office").
@bind("budgets", "csv", "data", "budgets.csv").
@mapping("budgets", 0, "office", "string"). @mapping("budgets", 1, "monthly_budget_gbp", "float").
@output("office_budget").
@mapping("office_budget", 0, "office", "string"). @mapping("office_budget", 1, "monthly_budget_gbp", "float").
@role("office_budget", "monthly_budget_gbp", "limit"). @unit("office_budget", "monthly_budget_gbp", "GBP").
office_budget($office, B) :- budgets($office, B).
'''
MONTHLY = '''@tool("get_station_monthly", "A station's monthly summary: month, rainfall and hours of sunshine.").
@param("station", "string", "Name of the station").
@bind("monthly", "csv", "data", "monthly.csv").
@mapping("monthly", 0, "station", "string"). @mapping("monthly", 1, "month", "string").
@mapping("monthly", 2, "rainfall_mm", "float"). @mapping("monthly", 3, "sunshine_hours", "float").
@output("monthly_summary").
@mapping("monthly_summary", 0, "station", "string"). @mapping("monthly_summary", 1, "month", "string").
@mapping("monthly_summary", 2, "rainfall_mm", "float"). @mapping("monthly_summary", 3, "sunshine_hours", "float").
@role("monthly_summary", "month", "date"). @unit("monthly_summary", "rainfall_mm", "mm").
@unit("monthly_summary", "sunshine_hours", "hours").
monthly_summary($station, M, R, S) :- monthly($station, M, R, S).
'''
TRIPS = '''@tool("get_station_trips", "Trips that started from a docking station: the date, how long it lasted and the fare paid.").
@param("station", "string", "Name of the docking station").
@bind("trips", "csv", "data", "trips.csv").
@mapping("trips", 0, "trip_id", "string"). @mapping("trips", 1, "station", "string").
@mapping("trips", 2, "start_date", "string"). @mapping("trips", 3, "duration_min", "int").
@mapping("trips", 4, "fare_gbp", "float").
@output("station_trip").
@mapping("station_trip", 0, "station", "string"). @mapping("station_trip", 1, "trip_id", "string").
@mapping("station_trip", 2, "start_date", "string"). @mapping("station_trip", 3, "duration_min", "int").
@mapping("station_trip", 4, "fare_gbp", "float").
@role("station_trip", "trip_id", "entity"). @role("station_trip", "start_date", "date").
@role("station_trip", "fare_gbp", "amount"). @label("station_trip", "duration_min", "duration").
@unit("station_trip", "duration_min", "min"). @unit("station_trip", "fare_gbp", "GBP").
station_trip($station, I, D, M, F) :- trips(I, $station, D, M, F).
'''
# Salt Hill is the highest station; Whitemore costs the most to maintain
STATION_ROWS = "station,office,elevation_m\nSalt Hill,Fenwick Office,412\nWhitemore,Fenwick Office,96\n" \
    "Foxbeck,Fenwick Office,230\n"
VISIT_ROWS = "visit_id,office,station,visit_date,cost_gbp\nV1,Fenwick Office,Whitemore,2024-01-10,900\n" \
    "V2,Fenwick Office,Whitemore,2024-02-11,800\nV3,Fenwick Office,Foxbeck,2024-01-20,300\n" \
    "V4,Fenwick Office,Salt Hill,2024-03-02,100\n"
BUDGET_ROWS = "office,monthly_budget_gbp\nFenwick Office,500\n"
# 2023: 100, 150, 170 hours (mean 140, total 420); 2024's month left out by the period (its rainfall, 140 mm, the
# mean's figure: the answer's 140 is the hours, said so)
MONTHLY_ROWS = "station,month,rainfall_mm,sunshine_hours\nCarnwick,2023-01,80,100\nCarnwick,2023-02,60,150\n" \
    "Carnwick,2023-03,40,170\nCarnwick,2024-01,140,60\n"
# durations 20, 30, 40 minutes (mean 30); fares 1.5, 2.5, 3.5
TRIP_ROWS = "trip_id,station,start_date,duration_min,fare_gbp\nT1,Salisbury Terrace,2024-01-03,20,1.5\n" \
    "T2,Salisbury Terrace,2024-01-19,30,2.5\nT3,Salisbury Terrace,2024-02-07,40,3.5\n"


@pytest.fixture(scope="module")
def network(tmp_path_factory):
    return write_catalog(tmp_path_factory.mktemp("network"),
                         {"get_office_stations": STATIONS, "get_office_visits": VISITS, "get_office_budget": BUDGET,
                          "get_station_monthly": MONTHLY, "get_station_trips": TRIPS},
                         {"stations.csv": STATION_ROWS, "visits.csv": VISIT_ROWS, "budgets.csv": BUDGET_ROWS,
                          "monthly.csv": MONTHLY_ROWS, "trips.csv": TRIP_ROWS})


@pytest.mark.parametrize("question, one", [
    ("Which of the Fenwick Office's stations sits at the highest elevation?", True),
    ("Which of them recorded the most rain?", True),
    ("Which of the Fenwick Office's stations sit at the highest elevations?", False),
])
def test_which_of_a_plural_with_a_singular_verb_asks_for_one(question, one):
    fr = frame.build(question)
    assert (fr.extreme == "max" and fr.n == 1) is one, fr.to_json()


def test_which_of_the_stations_sits_highest(network):
    result = ask("Which of the Fenwick Office's stations sits at the highest elevation?", network)
    assert result.verified, result.answer
    assert result.ctx.answer_values == ["Salt Hill"], result.answer


def test_a_ranking_by_another_amount_than_the_one_named_is_refused():
    """The Verifier's own check, on the dataset where it was found: no query is composed for the highest elevations
    in the plural, and the analysis path ranks the stations by their visits' cost against the office's budget, which
    no word of the question names: not verified (it was, in the first run)."""
    from vadaorchestra.agents.run import ask_sync
    from vadaorchestra.eval import resolve

    ds = resolve("weather_network")
    result = ask_sync("Which of the Fenwick Area Office's stations sit at the highest elevations?", catalog=ds.catalog,
                      data=ds.data_root)
    assert not result.verified, result.answer
    assert "orders by 'elevation'" in result.answer, result.answer


@pytest.mark.parametrize("question, per", [
    ("On average, how many hours of sunshine did Carnwick get per month in 2023?", "month"),
    ("How many hours of sunshine did Carnwick get each month on average in 2023?", "month"),
    ("What is the average length of trips that start at Salisbury Terrace?", ""),
])
def test_what_an_average_is_per(question, per):
    fr = frame.build(question)
    assert fr.average and fr.average_per == per


def test_an_average_per_month_over_monthly_rows_is_their_mean(network):
    from vadaorchestra.agents import wording

    result = ask("On average, how many hours of sunshine did Carnwick get per month in 2023?", network)
    assert result.verified, result.answer
    assert result.ctx.answer_values == [pytest.approx(140.0)], result.answer
    assert wording.lint(result.answer, result.ctx) == [], result.answer


def test_an_average_per_month_over_rows_of_single_trips_is_refused(network):
    """The trips are no months: their mean is no average per month (nor is their total)."""
    result = ask("On average, how many minutes did trips from Salisbury Terrace last per month?", network)
    assert not result.verified, result.answer


def test_a_measure_named_by_its_unit_is_averaged(network):
    result = ask("What is the average length, in minutes, of trips that start at Salisbury Terrace?", network)
    assert result.verified, result.answer
    assert result.ctx.answer_values == [pytest.approx(30.0)], result.answer
    assert result.answer.endswith("30 min."), result.answer


def test_which_three_of_them_cost_the_most_is_ranked_by_the_verbs_measure():
    """"Which three of the bikes ... have cost the most to repair?": three things, ranked by the repairs' cost summed
    per bike (the verb names the measure), not by the number of repairs; said as "the three bikes"."""
    fr = frame.build("Which three of the bikes based at Cooper Street have cost the most to repair?")
    assert fr.n == 3 and fr.ranking == "max" and fr.measure_words[0] == "cost"
    result = ask("Which three of the bikes based at Cooper Street have cost the most to repair?",
                 Path(__file__).resolve().parents[1] / "scenarios" / "bike_share")
    assert result.verified, result.answer
    assert result.ctx.answer_values == ["LB-0498", "LB-0500", "LB-0501"], result.answer
    assert result.answer.startswith("The three bikes based at Cooper Street have cost the most"), result.answer
