"""``graphrag guide serve``: the guide and the style over HTTP, for a Neo4j the user runs elsewhere (the local
server serves them itself). Browser fetches them from its own page, so every answer allows any origin."""

from __future__ import annotations

from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import click

from graphrag.guide.content import GUIDE_FILE, STYLE_FILE, guide_html, style_grass


def make_handler(files: dict[str, tuple[str, bytes]]) -> type[BaseHTTPRequestHandler]:
    """A handler answering ``GET /<name>`` for each of ``files`` (name -> content type, body), else 404."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            found = files.get(self.path.split("?", 1)[0].lstrip("/"))
            self.send_response(200 if found else 404)
            self.send_header("Access-Control-Allow-Origin", "*")
            self.send_header("Cache-Control", "no-store")
            body = found[1] if found else b"not found\n"
            self.send_header("Content-Type", found[0] if found else "text/plain; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            return None  # a request line per guide view is noise

    return Handler


def guide_server(host: str, port: int) -> ThreadingHTTPServer:
    files = {
        GUIDE_FILE: ("text/html; charset=utf-8", guide_html().encode()),
        STYLE_FILE: ("text/plain; charset=utf-8", style_grass().encode()),
    }
    return ThreadingHTTPServer((host, port), make_handler(files))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def guide() -> None:
    """Neo4j Browser's guide and style for a Neo4j you run yourself (docs/analysts.md).

    \b
    Example:
        graphrag guide serve --port 8766
    """


@guide.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", default=8766, show_default=True, type=click.IntRange(1, 65535), help="Port to listen on.")
def serve(host: str, port: int) -> None:
    """Serve /guide.html and /style.grass for Browser's post-connect command (Ctrl-C stops).

    \b
    Example:
        graphrag guide serve --host 0.0.0.0 --port 8766
    """
    server = guide_server(host, port)
    click.echo(f"serving http://{host}:{port}/{GUIDE_FILE} and /{STYLE_FILE} (Ctrl-C stops)", err=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
