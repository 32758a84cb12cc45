"""Form markup for the game pages without crispy's template machinery (``{% load fastforms %}``).

The same markup as crispy's bootstrap5 pack where the pages and scripts rely on it (a
``div#div_id_<name>.mb-3`` per field, ``form-label``, ``form-check``, ``invalid-feedback``,
``form-text``), rendered by a few ``format_html`` calls: six phones refresh the game partial after
every move, and crispy's nested templates were most of its time. The filters keep crispy's names
(``crispy``, ``as_crispy_field``) so a template switches by its ``{% load %}`` line only.
"""
from __future__ import annotations

from django import forms, template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from tracker.core import markup

register = template.Library()


def _errors(field) -> str:
    return format_html_join("", '<span class="invalid-feedback" id="error_{}_{}"><strong>{}</strong></span>',
                            ((i, field.auto_id, e) for i, e in enumerate(field.errors, 1)))


def _help(field) -> str:
    if not field.help_text:
        return ""
    return format_html('<div class="form-text" id="{}_helptext">{}</div>', field.auto_id, field.help_text)


INPUTS = (forms.TextInput, forms.NumberInput, forms.HiddenInput, forms.EmailInput, forms.URLInput)


def _select(field, widget, final: dict) -> str:
    """A single-choice <select> of flat choices, as Django's template renders it."""
    value = field.value()
    chosen = {"" if value is None else str(value)}
    options = markup.options(widget.choices, chosen)
    return format_html('<select name="{}"{}>{}</select>', field.html_name, _attrs(final), options)


def _flat(choices) -> bool:
    return all(not isinstance(label, (list, tuple)) for _v, label in choices)


def widget_html(field, attrs: dict | None = None) -> str:
    """The field's widget: plain inputs, checkboxes, text areas and flat single selects by format_html
    (Django renders every widget through a template of its own); any other widget as Django renders it."""
    widget = field.field.widget
    plain_select = type(widget) is forms.Select and _flat(widget.choices)
    if not (isinstance(widget, (*INPUTS, forms.CheckboxInput, forms.Textarea)) or plain_select) or widget.is_localized:
        return field.as_widget(attrs=attrs)
    final = widget.build_attrs(widget.attrs, {**field.build_widget_attrs({}, widget), **(attrs or {})})
    if field.auto_id and "id" not in final:
        final["id"] = field.auto_id
    if plain_select:
        return _select(field, widget, final)
    value = field.value()
    if isinstance(widget, forms.Textarea):
        return format_html("<textarea name=\"{}\"{}>\n{}</textarea>", field.html_name, _attrs(final),
                           "" if value is None else widget.format_value(value) or "")
    if isinstance(widget, forms.CheckboxInput):
        if widget.check_test(value):
            final["checked"] = True
        return format_html('<input type="checkbox" name="{}"{}>', field.html_name, _attrs(final))
    shown = widget.format_value(value)
    value_attr = format_html(' value="{}"', shown) if shown not in (None, "") else ""
    return format_html('<input type="{}" name="{}"{}{}>', widget.input_type, field.html_name, value_attr,
                       _attrs(final))


def _attrs(attrs: dict) -> str:
    return format_html_join("", "{}", ((format_html(' {}', k) if v is True else format_html(' {}="{}"', k, v),)
                                      for k, v in attrs.items() if v is not None and v is not False))


@register.filter(name="widget")
def widget(field) -> str:
    """The field's widget alone, the markup ``{{ field }}`` gives (a hidden version field, a number field)."""
    return mark_safe(widget_html(field))


@register.filter(name="as_crispy_field")
def as_field(field) -> str:
    """One bound field: label, widget, errors and help, in its ``div#div_<the field's id>``."""
    if field.is_hidden:
        return mark_safe(widget_html(field))
    widget = field.field.widget
    invalid = " is-invalid" if field.errors else ""
    described = {"aria-describedby": f"{field.auto_id}_helptext"} if field.help_text else {}
    if isinstance(widget, forms.CheckboxInput):
        inner = format_html('<div class="form-check">{}<label for="{}" class="form-check-label">{}</label>{}{}</div>',
                            widget_html(field, {"class": "form-check-input" + invalid, **described}),
                            field.id_for_label, field.label, _errors(field), _help(field))
    else:
        css = "form-select" if isinstance(widget, forms.Select) else "form-control"
        required = mark_safe('<span class="asteriskField">*</span>') if field.field.required else ""
        inner = format_html('<label for="{}" class="form-label{}">{}{}</label>{}{}{}',
                            field.id_for_label, " requiredField" if field.field.required else "", field.label,
                            required, widget_html(field, {"class": css + invalid, **described}),
                            _errors(field), _help(field))
    return format_html('<div id="div_{}" class="mb-3">{}</div>', field.auto_id, inner)  # crispy's own id


@register.filter(name="crispy")
def as_form(form) -> str:
    """A whole form's fields (no <form> tag, as crispy's filter): errors of the whole form first."""
    parts = []
    if form.non_field_errors():
        parts.append(format_html('<div class="alert alert-block alert-danger" role="alert"><ul class="m-0">{}</ul></div>',
                                 format_html_join("", "<li>{}</li>", ((e,) for e in form.non_field_errors()))))
    parts += [as_field(field) for field in form]
    return mark_safe("".join(parts))
