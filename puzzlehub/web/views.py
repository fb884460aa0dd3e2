"""Server-rendered pages. Each view reads through selectors, writes through services, and renders."""

import sys

import redis

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.db import DatabaseError
from django.http import HttpResponseServerError, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from puzzlehub import limits
from puzzlehub.accounts import selectors as account_selectors
from puzzlehub.accounts import services as accounts
from puzzlehub.algorithms import selectors as algorithm_selectors
from puzzlehub.algorithms import services as algorithms
from puzzlehub.jobs import selectors as job_selectors
from puzzlehub.jobs import services as jobs
from puzzlehub.repos import exports
from puzzlehub.repos import selectors as repo_selectors
from puzzlehub.repos import services as repos
from puzzlehub.web import forms, player
from puzzlehub.web.api import revision_for
from puzzlehub.web.drawing import puzzle_svg, sticker_cells
from solver import api as solver_api
from solver import catalog, geometry
from solver.errors import PuzzleError


def repository_url(repository) -> str:
    return reverse("repository", kwargs={"owner": repository.owner.username, "name": repository.name})


def _form_page(request, template: str, context: dict, *forms_):
    """Render a page holding forms: 400 when a submitted one has errors, like the API."""
    refused = any(form.is_bound and form.errors for form in forms_)
    return render(request, template, context, status=400 if refused else 200)


class LoginView(auth_views.LoginView):
    template_name = "web/login.html"

    def post(self, request, *args, **kwargs):
        limits.before_password(request, request.POST.get("username", ""))
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form):
        limits.wrong_password(self.request, self.request.POST.get("username", ""))
        return self.render_to_response(self.get_context_data(form=form), status=400)


def _page(request, items, per_page=20):
    return Paginator(items, per_page).get_page(request.GET.get("page"))


def _drawing(revision, moves=None, label=""):
    """The revision's puzzle drawn at its goal, or after `moves`; None when the stored text no longer loads."""
    try:
        defn = player.revision_definition(revision)
        state = solver_api.apply_moves(defn, moves) if moves else None
    except (ValidationError, PuzzleError):
        return None
    return puzzle_svg(defn, state, label=label)


def _effect_drawing(revision, moves: list[str]):
    """The solved puzzle with arrows from each moved piece's place to where the moves take it."""
    try:
        defn = player.revision_definition(revision)
        arrows = solver_api.effect_arrows(defn, moves, sticker_cells(defn))
    except (ValidationError, PuzzleError):
        return None
    return puzzle_svg(defn, label="effect: where each piece goes", arrows=arrows)


def _variants(user, algorithm, revision) -> list[dict]:
    """The algorithm's inverse, mirrors and rotations, each with the algorithm it already is for
    this reader (None when it is not one yet)."""
    try:
        defn = repos.load_definition(revision.definition)
        found = solver_api.variants(defn, algorithm.moves.split())
    except (ValidationError, PuzzleError):
        return []
    texts = [" ".join(v["moves"]) for v in found]
    known = {a.moves: a for a in algorithm_selectors.visible_algorithms(user).filter(
        content_hash=algorithm.content_hash, moves__in=texts)}
    return [dict(v, text=t, algorithm=known.get(t)) for v, t in zip(found, texts)]


def _player(request, repository, revision, **options):
    """A player's context for a revision; None when its stored text no longer loads."""
    try:
        return player.player_context(request, repository, revision, **options)
    except ValidationError:
        return None


def _for_cards(repositories):
    """Repositories as cards show them: owner and head (with its thumbnail) in the same query, not the
    head's definition text (megabytes for the big cubes)."""
    return repositories.select_related("owner", "head").defer("head__definition")


def _popular(user, count=12):
    """Catalog favourites first (a fresh install has no stars yet), then by stars and activity."""
    favourites = {r.name: r for r in _for_cards(repo_selectors.search_repositories(user=user, owner=repos.CATALOG_OWNER)
                                                .filter(name__in=catalog.FAVOURITES))}
    chosen = [favourites[n] for n in catalog.FAVOURITES if n in favourites][: count // 2]
    rest = repo_selectors.search_repositories(user=user, ordering="stars").exclude(id__in=[r.id for r in chosen])
    return chosen + list(_for_cards(rest)[: count - len(chosen)])


def home(request):
    q = request.GET.get("q", "").strip()
    if q:
        results = _page(request, _for_cards(repo_selectors.search_repositories(user=request.user, q=q)))
        return render(request, "web/search.html", {"q": q, "page": results})
    return render(request, "web/home.html", {
        "popular": _popular(request.user),
        "recent": repo_selectors.search_repositories(user=request.user, ordering="-updated")[:8],
    })


# --- accounts -----------------------------------------------------------------------------------

def signup(request):
    form = forms.SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = accounts.create_user(**form.cleaned_data, address=limits.address(request))
        except ValidationError as exc:
            forms.apply_errors(form, exc)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, f"Welcome to PuzzleHub, {user.username}.")
            return redirect("home")
    return _form_page(request, "web/signup.html", {"form": form}, form)


@login_required
def account_settings(request):
    profile = accounts.profile_of(request.user)
    form = forms.ProfileForm(request.POST or None, initial={"bio": profile.bio})
    if request.method == "POST":
        if "regenerate_token" in request.POST:
            accounts.regenerate_api_token(user=request.user)
            messages.success(request, "A new API token was made; the old one no longer works.")
            return redirect("settings")
        if form.is_valid():
            try:
                accounts.update_profile(user=request.user, bio=form.cleaned_data["bio"])
            except ValidationError as exc:
                forms.apply_errors(form, exc)
            else:
                messages.success(request, "Profile saved.")
                return redirect("settings")
    return _form_page(request, "web/settings.html", {
        "form": form, "token": accounts.api_token(user=request.user), "quota": job_selectors.quota_of(request.user),
    }, form)


def user_page(request, owner):
    user = account_selectors.get_user(username=owner)
    return render(request, "web/user.html", {
        "person": user,
        "bio": getattr(getattr(user, "profile", None), "bio", ""),
        "repositories": _for_cards(repo_selectors.search_repositories(user=request.user, owner=user.username,
                                                                      ordering="-updated")),
        "starred": repo_selectors.starred_by(user=user, viewer=request.user)[:20],
    })


# --- repositories -------------------------------------------------------------------------------

@login_required
def new_repository(request):
    form = forms.RepositoryForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            repository = repos.create_repository(
                owner=request.user, name=data["name"], description=data["description"],
                visibility=data["visibility"], license=data["license"], topics=form.topic_list(),
                definition=data["definition"], message=data["message"],
            )
        except ValidationError as exc:
            forms.apply_errors(form, exc)
        else:
            return redirect(repository_url(repository))
    return _form_page(request, "web/new_repository.html", {"form": form, "shape_names": list(geometry.NAMED)}, form)


def repository_page(request, owner, name):
    repository = repo_selectors.get_repository(owner=owner, name=name, user=request.user)
    head = repository.head
    return render(request, "web/repository.html", {
        "repo": repository,
        "head": head,
        "drawing": _drawing(head, label=repository.full_name),
        "player": _player(request, repository, head),
        "revisions": repo_selectors.revisions_of(repository)[:10],
        "forks": repo_selectors.forks_of(repository=repository, user=request.user)[:10],
        "algorithms": algorithm_selectors.algorithms_for(repository=repository, user=request.user)[:20],
        "starred": repo_selectors.has_starred(user=request.user, repository=repository),
        "is_owner": request.user.is_authenticated and repository.owner_id == request.user.id,
        "fork_form": forms.ForkForm(initial={"name": repository.name}),
        "algorithm_form": forms.AlgorithmForm(),
        "downloads": exports.offered(head),
    })


def _owned(request, owner, name):
    repository = repo_selectors.get_repository(owner=owner, name=name, user=request.user)
    if repository.owner_id != request.user.id:
        raise PermissionDenied("only the owner can change this repository")
    return repository


@login_required
def edit_repository(request, owner, name):
    repository = _owned(request, owner, name)
    settings_form = forms.RepositorySettingsForm(
        request.POST if "save_settings" in request.POST else None,
        initial={"description": repository.description, "visibility": repository.visibility,
                 "license": repository.license, "topics": " ".join(t.name for t in repository.topics.all())},
    )
    revision_form = forms.RevisionForm(
        request.POST if "save_revision" in request.POST else None,
        initial={"definition": repository.head.definition},
    )
    if request.method == "POST" and "save_settings" in request.POST and settings_form.is_valid():
        data = settings_form.cleaned_data
        try:
            repos.update_repository(repository=repository, description=data["description"],
                                    visibility=data["visibility"], license=data["license"],
                                    topics=settings_form.topic_list())
        except ValidationError as exc:
            forms.apply_errors(settings_form, exc)
        else:
            messages.success(request, "Settings saved.")
            return redirect(repository_url(repository))
    if request.method == "POST" and "save_revision" in request.POST and revision_form.is_valid():
        try:
            revision = repos.create_revision(repository=repository, author=request.user,
                                             definition=revision_form.cleaned_data["definition"],
                                             message=revision_form.cleaned_data["message"])
        except ValidationError as exc:
            forms.apply_errors(revision_form, exc)
        else:
            messages.success(request, f"Revision {revision.number} saved.")
            return redirect(repository_url(repository))
    return _form_page(request, "web/edit_repository.html", {
        "repo": repository, "settings_form": settings_form, "revision_form": revision_form,
    }, settings_form, revision_form)


@login_required
@require_POST
def delete_repository(request, owner, name):
    repository = _owned(request, owner, name)
    if request.POST.get("confirm") != repository.name:
        messages.error(request, f"Type {repository.name} to confirm the deletion.")
        return redirect("edit-repository", owner=owner, name=name)
    repos.delete_repository(repository=repository)
    messages.success(request, f"{owner}/{name} was deleted.")
    return redirect("user", owner=request.user.username)


def revisions_page(request, owner, name):
    repository = repo_selectors.get_repository(owner=owner, name=name, user=request.user)
    return render(request, "web/revisions.html", {
        "repo": repository, "page": _page(request, repo_selectors.revisions_of(repository), per_page=30),
    })


def revision_page(request, owner, name, number):
    repository = repo_selectors.get_repository(owner=owner, name=name, user=request.user)
    revision = repo_selectors.get_revision(repository=repository, number=number)
    previous = repository.revisions.filter(number__lt=number).order_by("-number").first()
    return render(request, "web/revision.html", {
        "repo": repository, "revision": revision, "previous": previous,
        "drawing": _drawing(revision, label=f"{repository.full_name}@{revision.number}"),
        "player": _player(request, repository, revision),
        "downloads": exports.offered(revision),
    })


def play_page(request, owner, name, embed=False):
    """The player on its own, holding everything in its URL: ?rev=N&setup=...&alg=...&at=K, and a
    start state and partial goal (&state=...&goal=..., `?` where a sticker does not matter). A bad
    permalink shows what is wrong (status 400) above the player at the latest revision."""
    repository = repo_selectors.get_repository(owner=owner, name=name, user=request.user)
    problems, setup, alg, origin, goal = [], [], [], None, None
    try:
        _repository, revision = revision_for(request, owner, name)
    except ValidationError as exc:
        problems += [f"{field}: {' '.join(m)}" for field, m in exc.message_dict.items()]
        revision = repository.head
    setup_text, alg_text = request.GET.get("setup", ""), request.GET.get("alg", "")
    state_text, goal_text = request.GET.get("state", ""), request.GET.get("goal", "")
    try:
        state = player.play_state(repos.load_definition(revision.definition), setup=setup_text, alg=alg_text,
                                  state=state_text, goal=goal_text)
        setup, alg, goal = state["setup"], state["alg"], state["goal"]
        origin = state["origin"] if state_text or goal_text else None
    except ValidationError as exc:
        problems += [f"{field}: {' '.join(m)}" for field, m in exc.message_dict.items()]
    at = request.GET.get("at", "")
    cursor = min(int(at), len(alg)) if at.isdigit() else (0 if embed else len(alg))
    context = {
        "repo": repository, "revision": revision, "problems": problems,
        "setup_text": setup_text, "alg_text": alg_text, "state_text": state_text, "goal_text": goal_text,
        "player": _player(request, repository, revision, setup=setup, alg=alg, cursor=cursor, start=origin,
                          goal=goal, permalink=not embed, key="play"),
        "drawing": _drawing(revision, label=repository.full_name),
    }
    return render(request, "web/embed.html" if embed else "web/play.html", context,
                  status=400 if problems else 200)


@xframe_options_exempt  # made to be framed by comments, forums and docs elsewhere
def embed_page(request, owner, name):
    return play_page(request, owner, name, embed=True)


def _revision_number(request, key):
    value = request.GET.get(key, "")
    return int(value) if value.isdigit() and int(value) > 0 else None


def compare_page(request, owner, name, other_owner, other_name):
    base_repo = repo_selectors.get_repository(owner=owner, name=name, user=request.user)
    head_repo = repo_selectors.get_repository(owner=other_owner, name=other_name, user=request.user)
    base = repo_selectors.get_revision(repository=base_repo, number=_revision_number(request, "base"))
    head = repo_selectors.get_revision(repository=head_repo, number=_revision_number(request, "head"))
    result = repo_selectors.compare_revisions(base, head)
    return render(request, "web/compare.html", {
        "base": base, "head": head, "semantic": result["semantic"],
        # the pickers: every revision of either side, newest first
        "base_choices": repo_selectors.revisions_of(base_repo).select_related(None).only("number", "message"),
        "head_choices": repo_selectors.revisions_of(head_repo).select_related(None).only("number", "message"),
        "diff_lines": result["text_diff"].splitlines(),
        "same_puzzle": base.content_hash == head.content_hash,
    })


@login_required
@require_POST
def fork(request, owner, name):
    repository = repo_selectors.get_repository(owner=owner, name=name, user=request.user)
    form = forms.ForkForm(request.POST)
    form.is_valid()
    try:
        new = repos.fork_repository(repository=repository, user=request.user,
                                    name=form.cleaned_data.get("name") or None)
    except ValidationError as exc:
        for field, problems in exc.message_dict.items():
            messages.error(request, f"Fork refused: {field}: {' '.join(problems)}")
        return redirect(repository_url(repository))
    messages.success(request, f"Forked {repository.full_name} to {new.full_name}.")
    return redirect(repository_url(new))


@login_required
@require_POST
def star(request, owner, name):
    repository = repo_selectors.get_repository(owner=owner, name=name, user=request.user)
    if request.POST.get("action") == "unstar":
        repos.unstar_repository(user=request.user, repository=repository)
    else:
        repos.star_repository(user=request.user, repository=repository)
    return redirect(repository_url(repository))


@login_required
@require_POST
def discover(request, owner, name):
    """Send a discovery run for the repository's puzzle to the workers; its page shows progress."""
    repository = repo_selectors.get_repository(owner=owner, name=name, user=request.user)
    try:
        job = jobs.submit_discovery(user=request.user, repository=repository)
    except ValidationError as exc:
        messages.error(request, "Discovery refused: " + " ".join(exc.messages))
    except jobs.QuotaExceeded as exc:
        messages.error(request, f"Discovery refused: {exc}")
    else:
        return redirect("job", job_id=job.id)
    return redirect(repository_url(repository))


# --- algorithms and comments --------------------------------------------------------------------

@login_required
@require_POST
def submit_algorithm(request, owner, name):
    repository = repo_selectors.get_repository(owner=owner, name=name, user=request.user)
    form = forms.AlgorithmForm(request.POST)
    if form.is_valid():
        try:
            algorithm = algorithms.submit_algorithm(repository=repository, user=request.user,
                                                    moves=form.cleaned_data["moves"],
                                                    title=form.cleaned_data["title"])
        except ValidationError as exc:
            for field, problems in exc.message_dict.items():
                messages.error(request, f"Algorithm refused: {field}: {' '.join(problems)}")
        else:
            return redirect("algorithm", pk=algorithm.id)
    else:
        messages.error(request, "Algorithm refused: give its moves.")
    return redirect(repository_url(repository))


def algorithm_page(request, pk):
    return _algorithm_page(request, algorithm_selectors.get_algorithm(algorithm_id=pk, user=request.user),
                           forms.CommentForm())


def _algorithm_page(request, algorithm, comment_form):
    """The algorithm's page, its comment form as given (a refused one shows its errors: 400)."""
    revision = algorithm.revision
    moves = algorithm.moves.split()
    before = after = play = effect = None
    shown = []
    if revision is not None:
        before = _drawing(revision, label="before")
        after = _drawing(revision, moves=moves, label="after")
        effect = _effect_drawing(revision, moves)
        play = _player(request, revision.repository, revision, alg=moves, cursor=0)
        shown = _variants(request.user, algorithm, revision)
    return render(request, "web/algorithm.html", {
        "algorithm": algorithm,
        "repo": revision.repository if revision else None,
        "before": before, "after": after, "effect": effect, "player": play, "variants": shown,
        "lengths": algorithm_selectors.lengths_of(algorithm),
        "cases": algorithm_selectors.cases_of(algorithm) if revision is not None else [],
        "my_vote": algorithm_selectors.vote_of(user=request.user, algorithm=algorithm),
        "comments": algorithm_selectors.comments_of(algorithm),
        "comment_form": comment_form,
    }, status=400 if comment_form.errors else 200)


@login_required
@require_POST
def vote(request, pk):
    algorithm = algorithm_selectors.get_algorithm(algorithm_id=pk, user=request.user)
    value = request.POST.get("value")
    if value == "0":
        algorithms.unvote(user=request.user, algorithm=algorithm)
    elif value in ("1", "-1"):
        algorithms.vote(user=request.user, algorithm=algorithm, value=int(value))
    return redirect("algorithm", pk=pk)


@login_required
@require_POST
def add_comment(request, pk):
    algorithm = algorithm_selectors.get_algorithm(algorithm_id=pk, user=request.user)
    form = forms.CommentForm(request.POST)
    if form.is_valid():
        try:
            comment = algorithms.add_comment(algorithm=algorithm, author=request.user,
                                             body=form.cleaned_data["body"], parent=form.cleaned_data["parent"])
        except ValidationError as exc:
            forms.apply_errors(form, exc)
        else:
            return redirect(reverse("algorithm", kwargs={"pk": pk}) + f"#comment-{comment.id}")
    return _algorithm_page(request, algorithm, form)


@login_required
def edit_comment(request, pk):
    comment = algorithm_selectors.get_comment(comment_id=pk, user=request.user)
    if comment.author_id != request.user.id:
        raise PermissionDenied("only the author can edit a comment")
    form = forms.CommentForm(request.POST or None, initial={"body": comment.body})
    if request.method == "POST" and form.is_valid():
        try:
            algorithms.edit_comment(comment=comment, user=request.user, body=form.cleaned_data["body"])
        except ValidationError as exc:
            forms.apply_errors(form, exc)
        else:
            return redirect(reverse("algorithm", kwargs={"pk": comment.algorithm_id}) + f"#comment-{comment.id}")
    return _form_page(request, "web/edit_comment.html", {"form": form, "comment": comment}, form)


@login_required
@require_POST
def delete_comment(request, pk):
    comment = algorithm_selectors.get_comment(comment_id=pk, user=request.user)
    algorithms.delete_comment(comment=comment, user=request.user)
    messages.success(request, "Comment deleted.")
    return redirect("algorithm", pk=comment.algorithm_id)


def bad_request(request, exception=None):
    """What Django itself refuses (a body over DATA_UPLOAD_MAX_MEMORY_SIZE, too many fields, a bad
    host): JSON with the reason on the API, a page elsewhere."""
    reason = str(exception or "") or "bad request"
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": reason}, status=400)
    return render(request, "web/400.html", {"message": reason}, status=400)


# Services whose absence (restarting) is a 503 with Retry-After, not a 500: PostgreSQL, and Redis,
# which the abuse limits and the API's write throttle count in (puzzlehub.limits)
AWAY = ((DatabaseError, "the database"), (redis.RedisError, "the shared cache (Redis)"))


def server_error(request):
    """An answer that went wrong: JSON on the API, a plain page elsewhere, never a traceback; with
    the database or Redis away (restarting), 503 and Retry-After, JSON on every path. Touches
    neither: it may be the reason it is here."""
    error = sys.exc_info()[1]
    for kind, service in AWAY:
        if isinstance(error, kind):
            response = JsonResponse({"detail": f"{service} is not answering; try again in a few seconds"}, status=503)
            response["Retry-After"] = "5"
            return response
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "server error"}, status=500)
    return HttpResponseServerError("<!doctype html><title>Server error</title><h1>Server error</h1>"
                                   "<p>Something went wrong on our side. Please try again.</p>")


@csrf_exempt  # also the API's catch-all route, which an API client's POST reaches without a CSRF token
def not_found(request, exception=None):
    """Nothing here: JSON on the API, like its other errors, a page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Not found."}, status=404)
    return render(request, "web/404.html", status=404)


def forbidden(request, exception=None):
    return render(request, "web/403.html", {"message": str(exception or "")}, status=403)

