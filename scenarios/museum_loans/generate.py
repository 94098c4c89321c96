"""Writes the Ashcombe Museum loans office's data (deterministic: the lists below and a seeded fee draw).

Run `python generate.py` from this folder (or call write(folder)); gold.py then computes the answers.
"""
import csv
import random
from datetime import date, timedelta
from pathlib import Path

DEPARTMENTS = [  # department, parent department, curator
    ("Fine Art", "", "Helen Pryce"),
    ("European Paintings", "Fine Art", "Marcus Hale"),
    ("Dutch and Flemish Paintings", "European Paintings", "Anneke Vos"),
    ("Italian Paintings", "European Paintings", "Giulia Benedetti"),
    ("British Paintings", "Fine Art", "Robert Ashby"),
    ("Prints and Drawings", "Fine Art", "Fiona Grant"),
    ("Decorative Arts", "", "Imogen Clarke"),
    ("Ceramics and Glass", "Decorative Arts", "Owen Rees"),
    ("Textiles and Dress", "Decorative Arts", "Priya Nair"),
    ("Furniture and Woodwork", "Decorative Arts", "Daniel Moss"),
    ("World Cultures", "", "Samuel Okafor"),
    ("Asian Art", "World Cultures", "Mei Lin Zhou"),
    ("Japanese Art", "Asian Art", "Kenji Mori"),
    ("Chinese Art", "Asian Art", "Li Wei"),
    ("African Collections", "World Cultures", "Amara Diallo"),
]

OBJECTS = [  # title, maker, department, object type, insurance value (GBP), year acquired
    ("Winter Skaters on the Amstel", "Hendrik de Vries", "Dutch and Flemish Paintings", "painting", 2400000, 1931),
    ("Still Life with Lemon and Roemer", "Anna Heda", "Dutch and Flemish Paintings", "painting", 1850000, 1954),
    ("The Merchant's Wife", "Pieter Claesz Boon", "Dutch and Flemish Paintings", "painting", 3100000, 1908),
    ("Dune Landscape with Shepherds", "Jacob Roelofs", "Dutch and Flemish Paintings", "painting", 640000, 1962),
    ("Interior of the Oude Kerk", "Emanuel de Smet", "Dutch and Flemish Paintings", "painting", 1200000, 1925),
    ("Tavern Scene with Card Players", "Adriaen Mol", "Dutch and Flemish Paintings", "painting", 780000, 1977),
    ("Flowers in a Delft Vase", "Rachel Bosch", "Dutch and Flemish Paintings", "painting", 2050000, 1949),
    ("Portrait of a Young Man in Black", "Frans Verhaegen", "Dutch and Flemish Paintings", "painting", 4300000, 1899),
    ("Madonna of the Pomegranate", "Workshop of Lorenzo Vitelli", "Italian Paintings", "painting", 2750000, 1913),
    ("View of the Grand Canal at Dawn", "Antonio Zanetti", "Italian Paintings", "painting", 3600000, 1936),
    ("Saint Jerome in the Wilderness", "Paolo Mancini", "Italian Paintings", "painting", 950000, 1958),
    ("Portrait of a Venetian Senator", "Giacomo Tasso", "Italian Paintings", "painting", 1400000, 1921),
    ("Harbour at Sunset with Fishermen", "Claudio Ferri", "Italian Paintings", "painting", 560000, 1983),
    ("The Harbour at Dieppe", "Eugene Marchand", "European Paintings", "painting", 1650000, 1947),
    ("Morning on the Seine", "Louise Beaumont", "European Paintings", "painting", 2200000, 1966),
    ("Haymakers near Dedham", "Thomas Hurst", "British Paintings", "painting", 1900000, 1902),
    ("Portrait of Lady Caroline Ashcombe", "Joshua Penrose", "British Paintings", "painting", 2600000, 1887),
    ("Storm over the Solent", "William Tennant", "British Paintings", "painting", 1150000, 1911),
    ("The Weaver's Daughter", "Edith Lorimer", "British Paintings", "painting", 820000, 1972),
    ("Evening at Whitby", "George Athey", "British Paintings", "painting", 690000, 1969),
    ("Cottage Garden in June", "Mary Tallis", "British Paintings", "painting", 430000, 1990),
    ("Study of a Kneeling Woman", "Lorenzo Vitelli", "Prints and Drawings", "drawing", 380000, 1938),
    ("View of Rome from the Aventine", "Giovanni Sarti", "Prints and Drawings", "print", 45000, 1951),
    ("Self-Portrait Leaning on a Sill", "Jan Lievensz", "Prints and Drawings", "print", 160000, 1929),
    ("Sheet of Studies of Hands", "Anna Heda", "Prints and Drawings", "drawing", 210000, 1974),
    ("Landscape with a Windmill", "Jacob Roelofs", "Prints and Drawings", "drawing", 95000, 1963),
    ("The Fish Market at Dover", "Thomas Hurst", "Prints and Drawings", "drawing", 60000, 1995),
    ("Melancholy Angel", "Albrecht Steiner", "Prints and Drawings", "print", 240000, 1919),
    ("Delftware Tulip Vase", "De Grieksche A Factory", "Ceramics and Glass", "ceramic", 185000, 1957),
    ("Meissen Harlequin Figure", "Meissen Porcelain Manufactory", "Ceramics and Glass", "ceramic", 140000, 1934),
    ("Venetian Goblet with Dolphin Stem", "Murano workshop", "Ceramics and Glass", "glass", 75000, 1948),
    ("Wedgwood Portland Vase", "Josiah Wedgwood and Sons", "Ceramics and Glass", "ceramic", 260000, 1906),
    ("Lustreware Charger", "William De Morgan", "Ceramics and Glass", "ceramic", 48000, 1986),
    ("Engraved Jacobite Wine Glass", "English glasshouse", "Ceramics and Glass", "glass", 22000, 1979),
    ("Paisley Shawl with Pine Cone Border", "Paisley weavers", "Textiles and Dress", "textile", 18000, 1960),
    ("Embroidered Court Mantua", "London workshop", "Textiles and Dress", "dress", 120000, 1933),
    ("Strawberry Thief Hanging", "Morris and Co", "Textiles and Dress", "textile", 35000, 1988),
    ("Spitalfields Silk Gown", "Spitalfields weavers", "Textiles and Dress", "dress", 95000, 1952),
    ("Kashmir Shawl", "Kashmiri weavers", "Textiles and Dress", "textile", 42000, 1944),
    ("Sampler by Mary Ellis", "Mary Ellis", "Textiles and Dress", "textile", 9500, 1999),
    ("Chippendale Library Table", "Thomas Chippendale", "Furniture and Woodwork", "furniture", 540000, 1928),
    ("Marquetry Cabinet on Stand", "Jan van Mekeren", "Furniture and Woodwork", "furniture", 310000, 1955),
    ("Carved Oak Chest", "Yorkshire joiner", "Furniture and Woodwork", "furniture", 28000, 1971),
    ("Bronze Seated Buddha", "Ayutthaya workshop", "Asian Art", "sculpture", 210000, 1937),
    ("Mughal Album Leaf with Courtiers", "Mughal court atelier", "Asian Art", "painting", 175000, 1965),
    ("Under the Wave off Kanagawa", "Katsushika Hokusai", "Japanese Art", "print", 310000, 1920),
    ("Lacquer Writing Box with Cranes", "Kyoto lacquer workshop", "Japanese Art", "lacquer", 150000, 1959),
    ("Imari Charger with Phoenix", "Arita kilns", "Japanese Art", "ceramic", 38000, 1976),
    ("Tea Bowl named Autumn Mist", "Raku workshop", "Japanese Art", "ceramic", 85000, 1984),
    ("Pair of Screens with Pine Trees", "Kano school", "Japanese Art", "painting", 640000, 1932),
    ("Noh Mask of a Young Woman", "Deme family carvers", "Japanese Art", "sculpture", 55000, 1968),
    ("Blue and White Moon Flask", "Jingdezhen kilns", "Chinese Art", "ceramic", 890000, 1912),
    ("Celadon Bowl with Lotus Petals", "Longquan kilns", "Chinese Art", "ceramic", 120000, 1946),
    ("Silk Dragon Robe", "Imperial silk workshops", "Chinese Art", "textile", 65000, 1953),
    ("Jade Brush Washer", "Suzhou carvers", "Chinese Art", "jade", 48000, 1961),
    ("Akan Goldweight Set", "Akan casters", "African Collections", "metalwork", 12000, 1978),
    ("Kuba Raffia Cloth", "Kuba weavers", "African Collections", "textile", 14000, 1981),
    ("Yoruba Divination Tray", "Yoruba carver", "African Collections", "sculpture", 36000, 1967),
    ("Asante Kente Cloth", "Asante weavers", "African Collections", "textile", 11000, 1993),
    ("Soapstone Carving of a Bear", "Kenojuak carving cooperative", "World Cultures", "sculpture", 8500, 1997),
]

INSTITUTIONS = [  # institution, city, country, registrar
    ("Museum Het Spaarne", "Haarlem", "Netherlands", "Pieter de Wit"),
    ("Clydeside Art Gallery", "Glasgow", "United Kingdom", "Morag Dunlop"),
    ("Liffey Gallery", "Dublin", "Ireland", "Siobhan Keane"),
    ("Kunsthalle Weserhafen", "Bremen", "Germany", "Jonas Albrecht"),
    ("Musee de la Saone", "Lyon", "France", "Claire Fontaine"),
    ("Kamogawa Museum of Craft", "Kyoto", "Japan", "Aiko Tanaka"),
    ("Hollis Museum of Art", "Boston", "United States", "Dana Whitfield"),
    ("Museo del Turia", "Valencia", "Spain", "Lucia Ferrer"),
]

EXHIBITIONS = [  # exhibition, host institution, opens, closes, indemnity limit (GBP), objects we lend to it
    ("Light on the Water", "Museum Het Spaarne", "2024-03-15", "2024-07-14", 9000000,
     ["Winter Skaters on the Amstel", "View of the Grand Canal at Dawn", "The Harbour at Dieppe",
      "Morning on the Seine", "Storm over the Solent"]),
    ("Golden Age Interiors", "Museum Het Spaarne", "2024-10-04", "2025-01-12", 8000000,
     ["Interior of the Oude Kerk", "Tavern Scene with Card Players", "Marquetry Cabinet on Stand",
      "Portrait of a Young Man in Black"]),
    ("Threads of Empire", "Clydeside Art Gallery", "2024-05-10", "2024-09-01", 500000,
     ["Paisley Shawl with Pine Cone Border", "Embroidered Court Mantua", "Kashmir Shawl",
      "Spitalfields Silk Gown", "Silk Dragon Robe", "Kuba Raffia Cloth"]),
    ("Northern Light", "Liffey Gallery", "2024-06-20", "2024-10-06", 5000000,
     ["Evening at Whitby", "Haymakers near Dedham", "The Weaver's Daughter", "Cottage Garden in June",
      "Landscape with a Windmill"]),
    ("Sea and Sky", "Kunsthalle Weserhafen", "2024-04-12", "2024-08-18", 4000000,
     ["Harbour at Sunset with Fishermen", "Dune Landscape with Shepherds", "The Fish Market at Dover",
      "Under the Wave off Kanagawa"]),
    ("Paper Worlds", "Musee de la Saone", "2024-05-03", "2024-07-28", 1000000,
     ["Study of a Kneeling Woman", "View of Rome from the Aventine", "Self-Portrait Leaning on a Sill",
      "Sheet of Studies of Hands", "Melancholy Angel"]),
    ("Made in Delft", "Musee de la Saone", "2024-11-08", "2025-02-23", 3000000,
     ["Flowers in a Delft Vase", "Delftware Tulip Vase", "Still Life with Lemon and Roemer"]),
    ("Kiln and Brush", "Kamogawa Museum of Craft", "2024-09-14", "2024-12-15", 2000000,
     ["Tea Bowl named Autumn Mist", "Imari Charger with Phoenix", "Blue and White Moon Flask",
      "Celadon Bowl with Lotus Petals", "Lacquer Writing Box with Cranes", "Pair of Screens with Pine Trees"]),
    ("The Painted Portrait", "Hollis Museum of Art", "2024-02-16", "2024-06-09", 12000000,
     ["Portrait of Lady Caroline Ashcombe", "Portrait of a Venetian Senator", "The Merchant's Wife",
      "Portrait of a Young Man in Black"]),
    ("Silk Roads", "Museo del Turia", "2024-07-05", "2024-11-03", 1500000,
     ["Mughal Album Leaf with Courtiers", "Bronze Seated Buddha", "Jade Brush Washer",
      "Venetian Goblet with Dolphin Stem"]),
]

FEES = [600, 850, 1200, 1500, 2000, 2500, 3000]


def _write(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def write(folder="."):
    data = Path(folder) / "data"
    data.mkdir(parents=True, exist_ok=True)
    rng = random.Random(1789)
    _write(data / "departments.csv", ["department", "parent_department", "curator"], DEPARTMENTS)
    objects = []
    for i, (title, maker, dept, kind, value, year) in enumerate(OBJECTS, start=1):
        objects.append((title, f"AM.{year}.{i:03d}", maker, dept, kind, value, year))
    _write(data / "objects.csv", ["object", "accession_number", "maker", "department", "object_type",
                                  "insurance_value_gbp", "acquired_year"], objects)
    _write(data / "institutions.csv", ["institution", "city", "country", "registrar"], INSTITUTIONS)
    _write(data / "exhibitions.csv", ["exhibition", "host_institution", "opens", "closes", "indemnity_limit_gbp"],
           [e[:5] for e in EXHIBITIONS])
    loans = []
    n = 0
    for exhibition, host, opens, closes, limit, titles in sorted(EXHIBITIONS, key=lambda e: e[2]):
        o = date.fromisoformat(opens)
        c = date.fromisoformat(closes)
        for title in titles:
            n += 1
            dispatch = o - timedelta(days=rng.randint(9, 26))
            ret = c + timedelta(days=rng.randint(7, 21))
            loans.append((f"LN-2024-{n:03d}", title, exhibition, dispatch.isoformat(), ret.isoformat(),
                          rng.choice(FEES)))
    _write(data / "loans.csv", ["loan_id", "object", "exhibition", "dispatch_date", "return_date", "loan_fee_gbp"],
           loans)


if __name__ == "__main__":
    write(Path(__file__).parent)
