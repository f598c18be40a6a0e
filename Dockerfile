# The service image: `graphrag` with its embedded model (no download at run time).
# It serves HTTP on every interface, so it needs GRAPHRAG_TOKENS_FILE (docker-compose.yml mounts tokens.yaml
# as a secret); without one `graphrag serve` refuses to start.
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY graphrag ./graphrag
COPY ingest ./ingest
COPY cypher ./cypher
COPY sql ./sql
COPY migrations ./migrations
COPY examples ./examples
RUN pip install --no-cache-dir .
ENV GRAPHRAG_HOME=/data \
    XDG_CACHE_HOME=/data/cache \
    GRAPHRAG_TOKENS_FILE=/run/secrets/graphrag-tokens \
    GRAPHRAG_LOG_FORMAT=json
EXPOSE 8765
HEALTHCHECK --interval=10s --timeout=5s --retries=12 \
  CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8765/health', timeout=4)"
CMD ["graphrag", "serve", "--transport", "http", "--host", "0.0.0.0", "--port", "8765"]
