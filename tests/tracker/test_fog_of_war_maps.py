"""The Fog of War map and wheel editor: create from the rules, add a province and connect two by
posting what the taps post, validation, export and import with their bounds, and a game on a saved map
and wheel (the facts applied, the blanks asked, one-tap card values)."""
import pytest
import yaml
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from gameplay.fog_of_war import mapdata
from tests.tracker.helpers import initial_data
from tracker.core import log
from tracker.fog_of_war.forms import NewFogGameForm
from tracker.fog_of_war.maps import key_for
from tracker.models import FowMap, Game

pytestmark = pytest.mark.django_db


def new_file(client, name="Клубная карта", kind="map"):
    r = client.post(reverse("fog_of_war:maps"), {"action": "new", "new-name": name, "new-kind": kind})
    assert r.status_code == 302, r.content.decode()[:2000]
    return FowMap.objects.get(name=name, kind=kind)


def data_of(row):
    row.refresh_from_db()
    return mapdata.load_map_text(row.text) if row.kind == "map" else mapdata.load_wheel_text(row.text)


PROVINCE = {"action": "add_province", "name_en": "Norway", "name_ru": "Норвегия", "kind": "land", "start_control": "neutral",
            "supply_point_of": "", "neutral_area": "", "orange": "", "is_ussr": "", "vp": "2", "resources": "",
            "climate": "snow"}


def test_a_new_map_starts_from_the_rules_with_every_fact_marked(client):
    row = new_file(client)
    data = data_of(row)
    assert len(data["provinces"]) == 21 and data["edges"] == [{"between": ["north_sea", "ruhr"],
                                                               "readings": data["edges"][0]["readings"]}]
    berlin = next(p for p in data["provinces"] if p["key"] == "berlin")
    assert berlin["from_rules"]["start_control"] == "1.6" and "vp" not in berlin and "climate" not in berlin
    html = client.get(reverse("fog_of_war:map", args=[row.pk])).content.decode()
    assert "21 из 28" in html or "21 of 28" in html
    assert html.count('class="node ') == 21 and 'style="' not in html


def test_add_a_province_connect_two_and_toggle_back(client):
    row = new_file(client)
    url = reverse("fog_of_war:map", args=[row.pk])
    assert client.post(url, PROVINCE).status_code == 302
    data = data_of(row)
    norway = next(p for p in data["provinces"] if p["key"] == "norway")
    assert norway == {"key": "norway", "name_en": "Norway", "name_ru": "Норвегия", "kind": "land",
                      "start_control": "neutral", "vp": 2, "climate": "snow"}  # blanks stay blank
    client.post(url, {"action": "connect", "a": "norway", "b": "north_sea"})
    assert {"between": ["north_sea", "norway"]} in data_of(row)["edges"]
    html = client.get(url).content.decode()
    assert 'data-a="north_sea" data-b="norway"' in html
    client.post(url, {"action": "connect", "a": "north_sea", "b": "norway"})  # the same pair again: disconnect
    assert {"between": ["north_sea", "norway"]} not in data_of(row)["edges"]
    r = client.post(url, {**PROVINCE}, follow=True)
    assert "уже есть" in r.content.decode() or "already has" in r.content.decode()
    assert len(data_of(row)["provinces"]) == 22


def test_editing_a_rules_fact_drops_its_rules_mark(client):
    row = new_file(client)
    url = reverse("fog_of_war:map", args=[row.pk])
    edit = {**PROVINCE, "action": "edit_province", "key": "berlin", "name_en": "Berlin", "name_ru": "Берлин",
            "start_control": "axis", "supply_point_of": "axis", "vp": "5", "resources": "4", "climate": "snow"}
    client.post(url, edit)
    berlin = next(p for p in data_of(row)["provinces"] if p["key"] == "berlin")
    assert (berlin["vp"], berlin["resources"], berlin["climate"]) == (5, 4, "snow")
    assert berlin["from_rules"]["start_control"] == "1.6"  # unchanged: still the rules'
    client.post(url, {**edit, "start_control": "allies"})
    berlin = next(p for p in data_of(row)["provinces"] if p["key"] == "berlin")
    assert "start_control" not in berlin["from_rules"]


def test_validation_connected_named_and_complete(client):
    row = new_file(client)
    data = data_of(row)
    names = [f"Extra {c}" for c in "ABCDEFG"]
    data["provinces"] += [{"key": key_for(n), "name_en": n, "kind": "land"} for n in names]
    keys = [p["key"] for p in data["provinces"]]
    data["edges"] = [{"between": sorted([a, b])} for a, b in zip(keys, keys[1:])]
    row.text = mapdata.dump(mapdata.check_map(data))
    row.save()
    report = mapdata.validate(data_of(row))
    assert report["complete"] and report["count"] == 28
    html = client.get(reverse("fog_of_war:map", args=[row.pk])).content.decode()
    assert 'class="card validation complete"' in html
    client.post(reverse("fog_of_war:map", args=[row.pk]), {"action": "delete_province", "key": "italy"})
    report = mapdata.validate(data_of(row))  # the chain is cut in the middle
    assert not report["complete"] and report["missing_named"] == ["italy"] and not report["connected"]


def test_export_and_import_round_trip_and_bounds(client):
    row = new_file(client)
    client.post(reverse("fog_of_war:map", args=[row.pk]), PROVINCE)
    r = client.get(reverse("fog_of_war:map_export", args=[row.pk]))
    assert r.status_code == 200 and r["Content-Disposition"].endswith('.fow-map.yaml"')
    text = r.content.decode()
    up = SimpleUploadedFile("club.fow-map.yaml", text.encode(), content_type="application/x-yaml")
    r = client.post(reverse("fog_of_war:maps"), {"action": "import", "imp-name": "На другом ноутбуке", "imp-upload": up})
    assert r.status_code == 302
    assert data_of(FowMap.objects.get(name="На другом ноутбуке"))["provinces"] == data_of(row)["provinces"]
    # the same name again: 409; anchors and aliases: refused before anything is built; too long: 400
    r = client.post(reverse("fog_of_war:maps"), {"action": "import", "imp-name": "На другом ноутбуке", "imp-text": text})
    assert r.status_code == 409
    bomb = "a: &a [x, x, x]\nb: &b [*a, *a, *a]\nprovinces: [*b, *b]\n"
    r = client.post(reverse("fog_of_war:maps"), {"action": "import", "imp-name": "bomb", "imp-text": bomb})
    assert r.status_code == 400 and FowMap.objects.filter(name="bomb").count() == 0
    r = client.post(reverse("fog_of_war:maps"), {"action": "import", "imp-name": "long",
                                                 "imp-text": "#" * (mapdata.MAX_FILE_CHARS + 1)})
    assert r.status_code in (400, 422) and not FowMap.objects.filter(name="long").exists()
    many = {"provinces": [{"key": f"p{i}", "kind": "land"} for i in range(mapdata.MAX_FILE_PROVINCES + 1)]}
    r = client.post(reverse("fog_of_war:maps"), {"action": "import", "imp-name": "many", "imp-text": yaml.safe_dump(many)})
    assert r.status_code == 400 and not FowMap.objects.filter(name="many").exists()


@pytest.mark.parametrize("bad", [
    {"provinces": [{"key": "x", "kind": "land", "name_en": "y" * 81}]},
    {"provinces": [{"key": "Bad Key", "kind": "land"}]},
    {"provinces": [{"key": "x", "kind": "swamp"}]},
    {"provinces": [{"key": "x", "kind": "land", "vp": 100}]},
    {"provinces": [{"key": "x", "kind": "land"}], "edges": [{"between": ["x", "nowhere"]}]},
    {"provinces": [{"key": "x", "kind": "land", "invented": 1}]},
    {"provinces": [], "cards": {"axis": ["Q9"]}},
])
def test_bad_map_files_are_refused_with_a_reason(bad):
    with pytest.raises(mapdata.MapFileError) as exc:
        mapdata.check_map(bad)
    assert exc.value.ru and exc.value.en


def test_wheel_editor_and_a_game_on_the_saved_map_and_wheel(client):
    wheel = new_file(client, "Наше колесо", "wheel")
    marks = {"action": "wheel", "launch_0": "no", "modifier_0": "none"}
    for i in range(1, 6):
        marks.update({f"launch_{i}": "yes", f"modifier_{i}": "A+1" if i == 1 else "none"})
    client.post(reverse("fog_of_war:map", args=[wheel.pk]), marks)
    assert mapdata.wheel_positions(data_of(wheel))[1] == {"no_intel": False, "launchable": True, "modifier": "A+1"}
    row = new_file(client)
    client.post(reverse("fog_of_war:map", args=[row.pk]),
                {"action": "cards", "cards_axis": "L3 L2 N2", "cards_allies": "L2 F1 Z", "cards_neutral": "L1"})
    data = initial_data(NewFogGameForm(), name="На карте", axis_player="А", allies_player="Б",
                        map_choice=str(row.pk), wheel_choice=str(wheel.pk))
    assert client.post(reverse("fog_of_war:new"), data).status_code == 302
    game = Game.objects.get(name="На карте")
    state = log.current_state(game)
    assert state["card_values"] == {"axis": ["L3", "L2", "N2"], "allies": ["L2", "F1", "Z"], "neutral": ["L1"]}
    assert state["engine"]["settings"]["wheel_positions"][1]["modifier"] == "A+1"
    client.get(reverse("join", args=[game.seats.get(number=1).token]))
    html = client.get(game.get_absolute_url()).content.decode()
    assert "fow_reveal.js" in html


def test_bounded_number_of_saved_files(client, monkeypatch):
    monkeypatch.setattr("tracker.fog_of_war.maps.MAX_SAVED", 1)
    new_file(client, "one")
    r = client.post(reverse("fog_of_war:maps"), {"action": "new", "new-name": "two", "new-kind": "map"})
    assert r.status_code == 409 and not FowMap.objects.filter(name="two").exists()


@pytest.mark.parametrize("label,text", [
    ("keys of mixed types", "1: a\nb: c\n"),
    ("a province with keys of mixed types",
     f"format: {mapdata.MAP_FORMAT}\nprovinces:\n  - {{key: abc, kind: land, 1: x, zz: y}}\n"),
    ("a number of 5,000 digits", f"format: {mapdata.MAP_FORMAT}\nprovinces:\n  - {{key: abc, kind: land, vp: {'9' * 5000}}}\n"),
    ("nesting 5,000 deep", "[" * 5000 + "]" * 5000),
    ("a wheel with keys of mixed types", f"format: {mapdata.WHEEL_FORMAT}\n1: a\npositions: []\n"),
])
def test_unreadable_files_are_a_400_not_a_500(client, label, text):
    r = client.post(reverse("fog_of_war:maps"), {"action": "import", "imp-name": label, "imp-text": text})
    assert r.status_code == 400, label
    assert not FowMap.objects.filter(name=label).exists()
