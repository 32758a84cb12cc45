"""The language of the current request, as the two codes the engines' reasons use."""
from django.utils.translation import get_language


def lang() -> str:
    return "en" if (get_language() or "ru").startswith("en") else "ru"
