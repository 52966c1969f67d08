from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from personas.models import LibraryPersona, PersonaLibrary, PersonaVersion


class PersonaVersionInline(admin.TabularInline):
    model = PersonaVersion
    extra = 0
    can_delete = False
    # A tuple: django-stubs types ``fields`` and ``readonly_fields`` differently, and
    # only an immutable sequence fits both.
    fields = ("number", "changed_by", "changed_at", "note", "data")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(PersonaLibrary)
class PersonaLibraryAdmin(admin.ModelAdmin):
    list_display = ["name", "team", "archived", "created_at"]
    list_filter = ["archived", "team"]
    search_fields = ["name", "description"]
    readonly_fields = ["code", "created_at", "updated_at"]


@admin.register(LibraryPersona)
class LibraryPersonaAdmin(admin.ModelAdmin):
    list_display = ["name", "library", "archived", "updated_at"]
    list_filter = ["archived", "library__team"]
    search_fields = ["name", "expertise"]
    readonly_fields = ["code", "created_at", "updated_at"]
    inlines = [PersonaVersionInline]
