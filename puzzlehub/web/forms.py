"""Page forms. They only shape input; every rule lives in the services they are handed to."""

from django import forms
from django.core.exceptions import ValidationError

from puzzlehub.repos.models import Repository

VISIBILITY = [(Repository.PUBLIC, "Public: anyone can see it"), (Repository.PRIVATE, "Private: only you")]


def apply_errors(form: forms.Form, exc: ValidationError) -> None:
    """Put a service's {field: message} errors on the form's fields (or the form itself)."""
    errors = exc.message_dict if hasattr(exc, "error_dict") else {None: exc.messages}
    for field, messages in errors.items():
        target = field if field in form.fields else None
        for message in messages:
            form.add_error(target, message if target else (f"{field}: {message}" if field else message))


class SignUpForm(forms.Form):
    username = forms.CharField(max_length=39)
    email = forms.EmailField(required=False)
    password = forms.CharField(widget=forms.PasswordInput, max_length=128)


class RepositoryForm(forms.Form):
    name = forms.CharField(max_length=100, help_text="Letters, digits, '.', '-' or '_'.")
    description = forms.CharField(required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 2}))
    visibility = forms.ChoiceField(choices=VISIBILITY, widget=forms.RadioSelect, initial=Repository.PUBLIC)
    topics = forms.CharField(required=False, max_length=400, help_text="Separated by spaces or commas.")
    license = forms.CharField(required=False, max_length=64)
    definition = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 18, "class": "code", "spellcheck": "false"}),
        strip=False, help_text="YAML (native or seed format), KPuzzle JSON, or a ksolve/twsearch .def/.tws file.",
    )
    message = forms.CharField(required=False, max_length=500, label="Revision message")

    def topic_list(self) -> list[str]:
        return self.cleaned_data["topics"].replace(",", " ").split()


class RepositorySettingsForm(forms.Form):
    description = forms.CharField(required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 2}))
    visibility = forms.ChoiceField(choices=VISIBILITY, widget=forms.RadioSelect)
    topics = forms.CharField(required=False, max_length=400, help_text="Separated by spaces or commas.")
    license = forms.CharField(required=False, max_length=64)

    def topic_list(self) -> list[str]:
        return self.cleaned_data["topics"].replace(",", " ").split()


class RevisionForm(forms.Form):
    definition = forms.CharField(widget=forms.Textarea(attrs={"rows": 22, "class": "code", "spellcheck": "false"}),
                                 strip=False, help_text=RepositoryForm.base_fields["definition"].help_text)
    message = forms.CharField(required=False, max_length=500, label="What changed?")


class ForkForm(forms.Form):
    name = forms.CharField(max_length=100, required=False, label="Name of your fork")


class AlgorithmForm(forms.Form):
    moves = forms.CharField(max_length=20_000, label="Moves", help_text="Alg notation: R U R' U', (R U)3, [R, U], [R: U].")
    title = forms.CharField(max_length=200, required=False)


class CommentForm(forms.Form):
    body = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), max_length=10_000, strip=False,
                           label="Comment", help_text="Markdown.")
    parent = forms.IntegerField(required=False, widget=forms.HiddenInput)


class ProfileForm(forms.Form):
    bio = forms.CharField(required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 3}))
