from django.apps import AppConfig
from django.utils.module_loading import import_string

# each game's adapter to the shared core (tracker.core.registry); a fourth game adds one line here
GAME_ADAPTERS = (
    "tracker.qmg.adapter.QmgAdapter",
    "tracker.generalissimus.adapter.GeneralissimusAdapter",
    "tracker.fog_of_war.adapter.FogOfWarAdapter",
)


class TrackerConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tracker"
    verbose_name = "Wargame companion"

    def ready(self):
        """Plug every game's adapter into the core, once, when the models are loaded."""
        register = import_string("tracker.core.registry.register")
        for path in GAME_ADAPTERS:
            register(import_string(path)())
