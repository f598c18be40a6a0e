"""A local GitHub API double: the endpoints the service uses, on loopback, answering in GitHub's schemas.

Every body it sends is first validated against githubkit's models (generated from GitHub's published
OpenAPI description), so a test that passes here passes against the shapes real GitHub answers with.
The App's JWT is checked with the App's public key; installation tokens are scoped to one repository,
expire, and are refused once expired. Accounts' permissions can change between calls. Every change of a
repository's files is a commit the double remembers, so a ``ref`` can pin an older version of a file.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import json
import re
import secrets
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, quote, unquote, urlsplit

import jwt
from githubkit.versions.latest.models import (
    BasicError,
    Blob,
    ContentDirectoryItems,
    ContentFile,
    FileCommit,
    GitTree,
    Installation,
    InstallationToken,
    PublicUser,
    RepositoryCollaboratorPermission,
    ReposOwnerRepoContentsPathPutBody,
    SimpleUser,
)
from pydantic import BaseModel

APP_ID = "4242"
BRANCH = "main"
NOW = "2026-01-01T00:00:00Z"
INLINE_BYTES = 1024 * 1024  # the contents API sends larger files with encoding "none" and no content


def account(login: str, number: int) -> dict[str, Any]:
    """A GitHub SimpleUser body for ``login``."""
    url = f"https://api.github.com/users/{login}"
    return {
        "login": login,
        "id": number,
        "node_id": f"U_{number}",
        "avatar_url": f"https://avatars.githubusercontent.com/u/{number}",
        "gravatar_id": "",
        "url": url,
        "html_url": f"https://github.com/{login}",
        "followers_url": f"{url}/followers",
        "following_url": f"{url}/following{{/other_user}}",
        "gists_url": f"{url}/gists{{/gist_id}}",
        "starred_url": f"{url}/starred{{/owner}}{{/repo}}",
        "subscriptions_url": f"{url}/subscriptions",
        "organizations_url": f"{url}/orgs",
        "repos_url": f"{url}/repos",
        "events_url": f"{url}/events{{/privacy}}",
        "received_events_url": f"{url}/received_events",
        "type": "User",
        "site_admin": False,
    }


@functools.cache  # bytes keep their hash: a file's id is computed once, however often it is listed
def blob_sha(content: bytes) -> str:
    """Git's object id of a blob, as GitHub's trees and contents API name files."""
    return hashlib.sha1(b"blob %d\x00" % len(content) + content).hexdigest()


@dataclass
class Token:
    repository: str
    permissions: dict[str, str]
    expires_at: datetime


@dataclass
class GitHubDouble:
    """The state the double serves: repositories, accounts' permissions, tokens, switches for failures."""

    public_key: str
    repositories: set[str] = field(default_factory=set)
    permissions: dict[tuple[str, str], str] = field(default_factory=dict)  # (repo, login) -> admin/write/read
    tokens: dict[str, Token] = field(default_factory=dict)
    token_lifetime: timedelta = timedelta(hours=1)
    installation_id: int = 77  # the App's installation; a reinstall gives a new one
    rate_limited: bool = False
    requests: list[str] = field(default_factory=list)
    url: str = ""
    files: dict[str, dict[str, bytes]] = field(default_factory=dict)  # repo -> path -> content (default branch)
    users: dict[str, str] = field(default_factory=dict)  # user access token -> login (what github_connect proves)
    commits: dict[str, list[tuple[str, dict[str, bytes]]]] = field(default_factory=dict)  # repo -> (sha, files)
    objects: dict[str, dict[str, bytes]] = field(default_factory=dict)  # repo -> blob sha -> content, every version

    def write(self, repository: str, path: str, content: bytes) -> str:
        """Commits ``content`` at ``path`` on the default branch; returns the commit's sha."""
        self.files.setdefault(repository, {})[path] = content
        self.objects.setdefault(repository, {})[blob_sha(content)] = content
        return self._commit(repository)

    def delete(self, repository: str, path: str) -> None:
        self.files.get(repository, {}).pop(path, None)
        self._commit(repository)

    def _commit(self, repository: str) -> str:
        history = self.commits.setdefault(repository, [])
        parent = history[-1][0] if history else ""
        sha = hashlib.sha1(f"{parent} {self.tree_sha(repository)} {len(history)}".encode()).hexdigest()
        history.append((sha, dict(self.files.get(repository, {}))))
        return sha

    def at(self, repository: str, ref: str | None) -> dict[str, bytes] | None:
        """The files at ``ref``: the default branch (None, ``HEAD`` or its name) or a remembered commit."""
        if ref in (None, "HEAD", BRANCH):
            return self.files.get(repository, {})
        return next((files for sha, files in self.commits.get(repository, []) if sha == ref), None)

    def user_token(self, login: str) -> str:
        """A user access token for ``login``, as the App's user authorisation flow hands one out."""
        value = "ghu_" + secrets.token_hex(18)
        self.users[value] = login
        return value

    def tree_sha(self, repository: str) -> str:
        files = sorted(self.files.get(repository, {}).items())
        return hashlib.sha1(repr([(path, blob_sha(content)) for path, content in files]).encode()).hexdigest()

    def set_permission(self, repository: str, login: str, permission: str | None) -> None:
        """Gives ``login`` ``permission`` on ``repository``; None takes every access away."""
        if permission is None:
            self.permissions.pop((repository, login), None)
        else:
            self.permissions[(repository, login)] = permission

    def expire_tokens(self) -> None:
        for token in self.tokens.values():
            token.expires_at = datetime.now(UTC) - timedelta(seconds=1)


def sign_delivery(secret: str, event: str, payload: dict[str, Any] | bytes) -> tuple[dict[str, str], bytes]:
    """A webhook delivery as GitHub sends it: headers (event, delivery id, HMAC SHA-256) and body (``payload``
    as JSON, or as it is when it is bytes already)."""
    body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    signature = "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    headers = {
        "X-GitHub-Event": event,
        "X-GitHub-Delivery": secrets.token_hex(16),
        "X-Hub-Signature-256": signature,
        "Content-Type": "application/json",
    }
    return headers, body


def _validated(model: type[BaseModel], body: dict[str, Any]) -> bytes:
    """``body`` as JSON, after checking it is what GitHub's schema says ``model`` looks like."""
    model.model_validate(body)
    return json.dumps(body).encode()


class _Handler(BaseHTTPRequestHandler):
    double: GitHubDouble
    protocol_version = "HTTP/1.1"  # keep-alive, as GitHub serves: clients may pool connections
    disable_nagle_algorithm = True  # headers and body are two writes: on a kept-alive connection, no 40 ms stall

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the tests read ``double.requests`` instead."""

    def _send(
        self,
        status: int,
        body: bytes,
        headers: dict[str, str] | None = None,
        content_type: str = "application/json; charset=utf-8",
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def _error(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        body = {"message": message, "documentation_url": "https://docs.github.com/rest"}
        self._send(status, _validated(BasicError, body), headers)

    def _bearer(self) -> str:
        value = self.headers.get("Authorization", "")
        return value.split(" ", 1)[1] if " " in value else ""

    def _app_ok(self) -> bool:
        try:
            claims = jwt.decode(self._bearer(), self.double.public_key, algorithms=["RS256"])
        except jwt.PyJWTError:
            return False
        return str(claims.get("iss")) == APP_ID

    def _token_for(self, repository: str) -> Token | None:
        token = self.double.tokens.get(self._bearer())
        if token is None or token.expires_at <= datetime.now(UTC) or token.repository != repository:
            return None
        return token

    def _route(self, method: str) -> None:
        double = self.double
        double.requests.append(f"{method} {self.path}")
        length = int(self.headers.get("Content-Length") or 0)  # read whole first: the connection is kept open
        request = json.loads(self.rfile.read(length) or b"{}")
        if double.rate_limited:
            reset = str(int((datetime.now(UTC) + timedelta(minutes=5)).timestamp()))
            headers = {"x-ratelimit-remaining": "0", "x-ratelimit-limit": "5000", "x-ratelimit-reset": reset}
            return self._error(403, "API rate limit exceeded", headers)
        if match := re.fullmatch(r"/repos/([^/]+)/([^/]+)/contents/([^?]+)(\?.*)?", self.path):
            ref = parse_qs(urlsplit(self.path).query).get("ref", [None])[0]
            if method == "PUT":
                return self._put_content(f"{match[1]}/{match[2]}", unquote(match[3]), request)
            return self._content(f"{match[1]}/{match[2]}", unquote(match[3]), ref)
        if match := re.fullmatch(r"/repos/([^/]+)/([^/]+)/installation", self.path):
            return self._installation(f"{match[1]}/{match[2]}")
        if match := re.fullmatch(r"/app/installations/(\d+)/access_tokens", self.path):
            return self._access_token(int(match[1]), request)
        if match := re.fullmatch(r"/repos/([^/]+)/([^/]+)/collaborators/([^/]+)/permission", self.path):
            return self._permission(f"{match[1]}/{match[2]}", match[3])
        if match := re.fullmatch(r"/repos/([^/]+)/([^/]+)/git/trees/([^/?]+)(\?recursive=1)?", self.path):
            return self._tree(f"{match[1]}/{match[2]}", match[3])
        if match := re.fullmatch(r"/repos/([^/]+)/([^/]+)/commits/HEAD", self.path):
            return self._head(f"{match[1]}/{match[2]}")
        if match := re.fullmatch(r"/repos/([^/]+)/([^/]+)/git/blobs/([0-9a-f]{40})", self.path):
            return self._blob(f"{match[1]}/{match[2]}", match[3])
        if self.path == "/user":
            return self._user()
        return self._error(404, "Not Found")

    def _user(self) -> None:
        login = self.double.users.get(self._bearer())
        if login is None:
            return self._error(401, "Bad credentials")
        profile = {
            **account(login, 1000 + sum(map(ord, login))),
            "name": None,
            "company": None,
            "blog": None,
            "location": None,
            "email": None,
            "hireable": None,
            "bio": None,
            "public_repos": 1,
            "public_gists": 0,
            "followers": 0,
            "following": 0,
            "created_at": NOW,
            "updated_at": NOW,
        }
        self._send(200, _validated(PublicUser, profile))

    def _tree(self, repository: str, ref: str) -> None:
        if self._token_for(repository) is None:
            return self._error(401, "Bad credentials")
        if not self.double.files.get(repository):
            return self._error(409, "Git Repository is empty.")
        files = self.double.at(repository, ref)
        if files is None:
            return self._error(404, "Not Found")
        base = f"{self.double.url}/repos/{repository}/git"
        entries: list[dict[str, Any]] = []
        folders = sorted(
            {"/".join(path.split("/")[:depth]) for path in files for depth in range(1, path.count("/") + 1)}
        )
        for folder in folders:
            entries.append(
                {"path": folder, "mode": "040000", "type": "tree", "sha": "0" * 40, "url": f"{base}/trees/x"}
            )
        for path, content in sorted(files.items()):
            sha = blob_sha(content)
            entries.append(
                {
                    "path": path,
                    "mode": "100644",
                    "type": "blob",
                    "sha": sha,
                    "size": len(content),
                    "url": f"{base}/blobs/{sha}",
                }
            )
        sha = self.double.tree_sha(repository)
        body = {"sha": sha, "url": f"{base}/trees/{sha}", "truncated": False, "tree": entries}
        self._send(200, _validated(GitTree, body))

    def _content(self, repository: str, path: str, ref: str | None) -> None:
        """``GET /repos/{o}/{r}/contents/{path}``: a file (large ones without content), or a folder's items."""
        if self._token_for(repository) is None:
            return self._error(401, "Bad credentials")
        files = self.double.at(repository, ref)
        if files is None:
            return self._error(404, f"No commit found for the ref {ref}")
        if path in files:
            content = files[path]
            inline = len(content) <= INLINE_BYTES
            encoded = base64.b64encode(content).decode() if inline else ""
            body = {
                **self._item(repository, path, "file", blob_sha(content), len(content), ref),
                "encoding": "base64" if inline else "none",
                "content": "\n".join(encoded[i : i + 60] for i in range(0, len(encoded), 60)),
            }
            return self._send(200, _validated(ContentFile, body))
        inside = sorted({name[len(path) + 1 :].split("/")[0] for name in files if name.startswith(path + "/")})
        if not inside:
            return self._error(404, "Not Found")
        items = []
        for name in inside:
            full = f"{path}/{name}"
            if full in files:
                items.append(self._item(repository, full, "file", blob_sha(files[full]), len(files[full]), ref))
            else:
                items.append(self._item(repository, full, "dir", "0" * 40, 0, ref))
        for item in items:
            ContentDirectoryItems.model_validate(item)
        self._send(200, json.dumps(items).encode())

    def _item(self, repository: str, path: str, kind: str, sha: str, size: int, ref: str | None) -> dict[str, Any]:
        """The fields GitHub gives every entry of the contents API."""
        quoted = quote(path)
        url = f"{self.double.url}/repos/{repository}/contents/{quoted}?ref={ref or BRANCH}"
        git = f"{self.double.url}/repos/{repository}/git/{'blobs' if kind == 'file' else 'trees'}/{sha}"
        html = f"https://github.com/{repository}/{'blob' if kind == 'file' else 'tree'}/{ref or BRANCH}/{quoted}"
        download = (
            f"https://raw.githubusercontent.com/{repository}/{ref or BRANCH}/{quoted}" if kind == "file" else None
        )
        return {
            "type": kind,
            "size": size,
            "name": path.rsplit("/", 1)[-1],
            "path": path,
            "sha": sha,
            "url": url,
            "git_url": git,
            "html_url": html,
            "download_url": download,
            "_links": {"self": url, "git": git, "html": html},
        }

    def _put_content(self, repository: str, path: str, request: dict[str, Any]) -> None:
        """``PUT /repos/{o}/{r}/contents/{path}`` as GitHub answers it: the branch is checked first, then the
        sha (missing for an existing file: 422; not the current blob: 409; ignored for a new file)."""
        token = self._token_for(repository)
        if token is None:
            return self._error(401, "Bad credentials")
        if token.permissions.get("contents") != "write":
            return self._error(403, "Resource not accessible by integration")
        try:
            body = ReposOwnerRepoContentsPathPutBody.model_validate(request)
            content = base64.b64decode(body.content, validate=True)
        except ValueError:
            return self._error(422, "Invalid request.")
        if isinstance(body.branch, str) and body.branch != BRANCH:
            return self._error(404, f"Branch {body.branch} not found")
        current = self.double.files.get(repository, {}).get(path)
        sha = body.sha if isinstance(body.sha, str) else None
        if current is not None and sha is None:
            return self._error(422, 'Invalid request.\n\n"sha" wasn\'t supplied.')
        if current is not None and sha != blob_sha(current):
            return self._error(409, f"{path} does not match {sha}")
        commit = self.double.write(repository, path, content)
        item = self._item(repository, path, "file", blob_sha(content), len(content), None)
        answer = {
            "content": item,
            "commit": {
                "sha": commit,
                "node_id": f"C_{commit[:12]}",
                "url": f"{self.double.url}/repos/{repository}/git/commits/{commit}",
                "html_url": f"https://github.com/{repository}/commit/{commit}",
                "message": body.message,
                "tree": {
                    "sha": self.double.tree_sha(repository),
                    "url": f"{self.double.url}/repos/{repository}/git/trees/x",
                },
                "parents": [],
            },
        }
        self._send(201 if current is None else 200, _validated(FileCommit, answer))

    def _head(self, repository: str) -> None:
        """The default branch's commit sha alone, as GitHub answers ``Accept: application/vnd.github.sha``."""
        if self._token_for(repository) is None:
            return self._error(401, "Bad credentials")
        if self.headers.get("Accept") != "application/vnd.github.sha":
            return self._error(415, "the double answers commits/HEAD only as application/vnd.github.sha")
        history = self.double.commits.get(repository)
        if not self.double.files.get(repository) or not history:
            return self._error(409, "Git Repository is empty.")
        self._send(200, history[-1][0].encode(), content_type="application/vnd.github.sha; charset=utf-8")

    def _blob(self, repository: str, sha: str) -> None:
        if self._token_for(repository) is None:
            return self._error(401, "Bad credentials")
        found = self.double.objects.get(repository, {}).get(sha)
        if found is None:
            return self._error(404, "Not Found")
        body = {
            "content": base64.b64encode(found).decode(),
            "encoding": "base64",
            "url": f"{self.double.url}/repos/{repository}/git/blobs/{sha}",
            "sha": sha,
            "size": len(found),
            "node_id": f"B_{sha[:12]}",
        }
        self._send(200, _validated(Blob, body))

    def _installation(self, repository: str) -> None:
        if not self._app_ok():
            return self._error(401, "A JSON web token could not be decoded")
        if repository not in self.double.repositories:
            return self._error(404, "Not Found")
        owner = account(repository.split("/")[0], 9000)
        body = {
            "id": self.double.installation_id,
            "account": owner,
            "repository_selection": "selected",
            "access_tokens_url": f"{self.double.url}/app/installations/{self.double.installation_id}/access_tokens",
            "repositories_url": f"{self.double.url}/installation/repositories",
            "html_url": f"https://github.com/settings/installations/{self.double.installation_id}",
            "app_id": int(APP_ID),
            "target_id": 9000,
            "target_type": "Organization",
            "permissions": {"contents": "write", "metadata": "read"},
            "events": ["push"],
            "created_at": NOW,
            "updated_at": NOW,
            "single_file_name": None,
            "app_slug": "pack-graphrag",
            "suspended_by": None,
            "suspended_at": None,
        }
        self._send(200, _validated(Installation, body))

    def _access_token(self, installation: int, request: dict[str, Any]) -> None:
        if not self._app_ok():
            return self._error(401, "A JSON web token could not be decoded")
        names = request.get("repositories") or []
        owned = [name for name in self.double.repositories if name.split("/")[1] in names]
        if installation != self.double.installation_id:
            return self._error(404, "Not Found")
        if len(names) != 1 or len(owned) != 1:
            return self._error(422, "a token is scoped to exactly one repository of the installation")
        value = "ghs_" + secrets.token_hex(18)
        expires = datetime.now(UTC).replace(microsecond=0) + self.double.token_lifetime
        permissions = dict(request.get("permissions") or {"contents": "read", "metadata": "read"})
        self.double.tokens[value] = Token(owned[0], permissions, expires)
        body = {
            "token": value,
            "expires_at": expires.isoformat().replace("+00:00", "Z"),
            "permissions": permissions,
            "repository_selection": "selected",
        }
        self._send(201, _validated(InstallationToken, body))

    def _permission(self, repository: str, login: str) -> None:
        if self._token_for(repository) is None:
            return self._error(401, "Bad credentials")
        permission = self.double.permissions.get((repository, login))
        if permission is None:
            return self._error(404, "Not Found")
        user = account(login, 1000 + sum(map(ord, login)))
        SimpleUser.model_validate(user)
        collaborator = {
            **user,
            "role_name": permission,
            "permissions": {
                "pull": True,
                "triage": True,
                "push": permission != "read",
                "maintain": False,
                "admin": False,
            },
        }
        body = {"permission": permission, "role_name": permission, "user": collaborator}
        self._send(200, _validated(RepositoryCollaboratorPermission, body))

    def do_GET(self) -> None:
        self._route("GET")

    def do_POST(self) -> None:
        self._route("POST")

    def do_PUT(self) -> None:
        self._route("PUT")


class DoubleServer:
    """Serves a ``GitHubDouble`` on 127.0.0.1 (an ephemeral port) in a thread, until ``close``."""

    def __init__(self, double: GitHubDouble) -> None:
        handler = type("Handler", (_Handler,), {"double": double})
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        double.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
