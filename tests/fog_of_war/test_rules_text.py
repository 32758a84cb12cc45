"""The Fog of War's rules text (gameplay/fog_of_war/data/rules.yaml): every section of the quick rules, in
Russian and English, with stable ids."""
from pathlib import Path

import yaml

import gameplay.fog_of_war

RULES = Path(gameplay.fog_of_war.__file__).parent / "data" / "rules.yaml"
SEED_SECTIONS = ["ЦЕЛЬ ИГРЫ", "СНАБЖЕНИЕ", "ИСПОЛЬЗОВАНИЕ КАРТ", "1. ПОДГОТОВКА К ИГРЕ", "2.1", "2.2", "2.3", "2.4",
                 "2.5–2.8", "2.9", "2.10–2.11", "3. КОНЕЦ ГОДА", "Действие 1. Оборона провинции",
                 "Действие 2. Новая операция", "Действие 3. Отмена операции", "Действие 4. Усиление операции",
                 "Действие 5. Запуск операции", "Действие 12. Подкрепление", "ПОДСЧЁТ БОЕВОЙ СИЛЫ", "ПОБЕДА",
                 "УПОРНЫЕ БОИ", "ПОРАЖЕНИЕ", "РАЗГРОМ"]


def sections():
    return yaml.safe_load(RULES.read_text(encoding="utf-8"))["sections"]


def test_every_seed_section_once_with_both_languages():
    rows = sections()
    assert [r["seed"] for r in rows] == SEED_SECTIONS
    ids = [r["id"] for r in rows]
    assert len(ids) == len(set(ids))
    for r in rows:
        assert set(r) == {"id", "seed", "title", "text"}
        for lang in ("ru", "en"):
            assert r["title"][lang].strip() and len(r["text"][lang]) > 40, (r["id"], lang)
        assert any("а" <= ch <= "я" for ch in r["text"]["ru"].lower())
        assert not any("а" <= ch <= "я" for ch in r["text"]["en"].lower())
