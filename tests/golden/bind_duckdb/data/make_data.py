"""Regenerate bank.duckdb (run from this folder: python make_data.py). A small block size keeps the file small."""

import os

import duckdb

if os.path.exists("bank.duckdb"):
    os.remove("bank.duckdb")
con = duckdb.connect()
con.execute("ATTACH 'bank.duckdb' AS db (BLOCK_SIZE 16384)")
con.execute("CREATE TABLE db.accounts (owner VARCHAR, balance BIGINT, vip BOOLEAN)")
con.execute("INSERT INTO db.accounts VALUES ('ann', 1500, TRUE), ('bob', 200, FALSE), ('cy', 1000, FALSE)")
con.execute("CREATE TABLE db.people (name VARCHAR, city VARCHAR)")
con.execute("INSERT INTO db.people VALUES ('ann', 'Rome'), ('bob', 'Oslo'), ('cy', 'Lima')")
con.execute("CHECKPOINT db")
con.close()
