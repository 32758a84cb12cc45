"""The Fog of War companion's web layer: views, forms and URLs around the engine's stepper
(``gameplay.fog_of_war.stepper.STEPPER``, registered by the views)."""
