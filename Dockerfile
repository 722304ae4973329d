# Kozyr server image: slim, non-root. `kozyr serve` runs the migrations at
# start-up (under a PostgreSQL advisory lock, so several replicas may start at
# once), then uvicorn. The code stays in /app (an editable install), because
# the app finds static/, alembic.ini and migrations/ beside its package.  The
# libraries are requirements-runtime.lock's exact versions, checked by their hashes.
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
RUN useradd --create-home --uid 10001 kozyr \
    && mkdir /data && chown kozyr /data
WORKDIR /app
COPY requirements-runtime.lock ./
RUN pip install --require-hashes -r requirements-runtime.lock
COPY pyproject.toml README.md alembic.ini ./
COPY engine ./engine
COPY app ./app
COPY migrations ./migrations
COPY static ./static
RUN pip install --no-deps -e .
# Without DATABASE_URL the server keeps a SQLite file in the working directory.
WORKDIR /data
USER kozyr
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --retries=3 \
  CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz').status != 200)"
CMD ["kozyr", "serve", "--host", "0.0.0.0", "--port", "8000"]
