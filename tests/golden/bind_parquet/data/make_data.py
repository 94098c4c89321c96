"""Regenerate fx/rates.parquet (run from this folder: python make_data.py)."""

import duckdb

con = duckdb.connect()
con.execute("""
    COPY (SELECT * FROM (VALUES ('EUR', 1.125::DOUBLE, 2024::BIGINT, TRUE),
                                ('GBP', 1.25::DOUBLE, 2024::BIGINT, TRUE),
                                ('JPY', 0.0078125::DOUBLE, 2023::BIGINT, FALSE))
          AS t(currency, rate, year, active))
    TO 'fx/rates.parquet' (FORMAT parquet)
""")
