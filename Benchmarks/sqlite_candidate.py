#!/usr/bin/env python3
"""The rejected candidate for issue 10: the embedded catalogue materialised as SQLite.

Builds a SQLite file from the real catalogue (summaries dropped, each book's JSON kept for
rendering, a table per facet with indexes, an FTS5 trigram table over titles and author names),
then times Gutendex queries in fresh `sqlite3` processes (the whole process, wall time and exact
peak RSS from GNU time) next to `sqlite3 :memory: 'select 1'`.

  python3 Benchmarks/sqlite_candidate.py [../shared/gutendex/catalogue-2025-08.jsonl.gz]

Needs python3 (sqlite3 module), the sqlite3 command and /usr/bin/time. Writes only under /tmp.
"""
import gzip, json, os, sqlite3, statistics, subprocess, sys, tempfile, time

source = sys.argv[1] if len(sys.argv) > 1 else "../shared/gutendex/catalogue-2025-08.jsonl.gz"
workdir = tempfile.mkdtemp(prefix="sqlite-candidate-")
path = os.path.join(workdir, "catalogue.sqlite")

start = time.monotonic()
db = sqlite3.connect(path)
db.executescript("""
PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;
CREATE TABLE book(id INTEGER PRIMARY KEY, title TEXT, downloads INTEGER, copyright INTEGER, json BLOB);
CREATE TABLE author(book INTEGER, name TEXT, birth INTEGER, death INTEGER);
CREATE TABLE topic(book INTEGER, topic TEXT);
CREATE TABLE language(book INTEGER, code TEXT);
CREATE TABLE format(book INTEGER, mime TEXT);
CREATE VIRTUAL TABLE search USING fts5(title, names, tokenize='trigram');
""")
with gzip.open(source, "rt", encoding="utf-8") as lines:
    for line in lines:
        b = json.loads(line)
        if b.get("title") is None or b.get("download_count") is None:
            continue
        b["summaries"] = []
        blob = json.dumps(b, ensure_ascii=False, separators=(",", ":")).encode()
        c = b.get("copyright")
        db.execute("INSERT INTO book VALUES (?,?,?,?,?)",
                   (b["id"], b["title"], b["download_count"], None if c is None else int(c), blob))
        for a in b.get("authors", []):
            db.execute("INSERT INTO author VALUES (?,?,?,?)",
                       (b["id"], a.get("name") or "", a.get("birth_year"), a.get("death_year")))
        for t in (b.get("subjects") or []) + (b.get("bookshelves") or []):
            db.execute("INSERT INTO topic VALUES (?,?)", (b["id"], t))
        for code in b.get("languages") or []:
            db.execute("INSERT INTO language VALUES (?,?)", (b["id"], code))
        for mime in (b.get("formats") or {}):
            db.execute("INSERT INTO format VALUES (?,?)", (b["id"], mime))
        db.execute("INSERT INTO search(rowid, title, names) VALUES (?,?,?)",
                   (b["id"], b["title"], " ".join(a.get("name") or "" for a in b.get("authors", []))))
db.executescript("""
CREATE INDEX book_popular ON book(downloads DESC, id);
CREATE INDEX author_book ON author(book); CREATE INDEX topic_book ON topic(book);
CREATE INDEX language_code ON language(code, book); CREATE INDEX format_mime ON format(mime, book);
""")
db.commit()
db.close()
build = time.monotonic() - start
size = os.path.getsize(path)

PAGE = "ORDER BY b.downloads DESC, b.id LIMIT 32 OFFSET {offset}"
def page(where, offset=0, order=None):
    order = order or PAGE.format(offset=offset)
    return (f"SELECT count(*) FROM book b WHERE {where};"
            f"SELECT b.json FROM book b WHERE {where} {order};")
LIKE_NAME = "EXISTS (SELECT 1 FROM author a WHERE a.book=b.id AND a.name LIKE '%{t}%')"
queries = {
    "default first page": page("1"),
    "search=dickens (LIKE)": page("(b.title LIKE '%dickens%' OR " + LIKE_NAME.format(t="dickens") + ")"),
    "search=dickens (FTS5 trigram)": page("b.id IN (SELECT rowid FROM search WHERE search MATCH '\"dickens\"')"),
    "search=great expectations (LIKE)": page(" AND ".join(
        f"(b.title LIKE '%{t}%' OR " + LIKE_NAME.format(t=t) + ")" for t in ["great", "expectations"])),
    "topic=science fiction, page 5": page(
        "EXISTS (SELECT 1 FROM topic t WHERE t.book=b.id AND t.topic LIKE '%science fiction%')", 128),
    "languages=fr": page("b.id IN (SELECT book FROM language WHERE code='fr')"),
    "author years 1800-1850": page(
        "EXISTS (SELECT 1 FROM author a WHERE a.book=b.id AND (a.birth>=1800 OR a.death>=1800)) AND "
        "EXISTS (SELECT 1 FROM author a WHERE a.book=b.id AND (a.birth<=1850 OR a.death<=1850))"),
    "mime_type=audio": page("b.id IN (SELECT book FROM format WHERE mime LIKE 'audio%')"),
    "sort=ascending, page 100": page("1", order="ORDER BY b.id LIMIT 32 OFFSET 3168"),
    "ids=84,1342,11": page("b.id IN (84,1342,11)"),
    "detail of 84": "SELECT json FROM book WHERE id=84;",
}

def run(args):
    timing = os.path.join(workdir, "time.txt")
    begin = time.monotonic()
    done = subprocess.run(["/usr/bin/time", "-o", timing, "-f", "%M"] + args,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wall = time.monotonic() - begin
    if done.returncode != 0:
        raise SystemExit(f"failed: {args[:3]}: {done.stderr[:300]}")
    return wall, int(open(timing).read().split()[-1]) / 1024, done.stdout

RUNS = 15
baseline = [run(["sqlite3", ":memory:", "select 1"]) for _ in range(RUNS)]
print(f"SQLite candidate: build {build:.1f} s, file {size / 1e6:.1f} MB ({source})")
print(f"baseline `sqlite3 :memory: 'select 1'`: median {statistics.median(w for w, _, _ in baseline) * 1e3:.1f} ms, "
      f"{statistics.median(r for _, r, _ in baseline):.1f} MiB")
print("| query | median wall | max wall | peak RSS | count |")
print("|---|---|---|---|---|")
for name, sql in queries.items():
    samples = [run(["sqlite3", "-readonly", path, sql]) for _ in range(RUNS)]
    out = samples[0][2].decode(errors="replace").splitlines()
    print(f"| {name} | {statistics.median(w for w, _, _ in samples) * 1e3:.1f} ms | "
          f"{max(w for w, _, _ in samples) * 1e3:.1f} ms | {max(r for _, r, _ in samples):.1f} MiB | "
          f"{out[0] if out else '-'} |")
