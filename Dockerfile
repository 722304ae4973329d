# Kozyr server image: slim, non-root; migrations run at start-up (under a
# PostgreSQL advisory lock, so several replicas may start at once), then uvicorn.
FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY app ./app
RUN pip install --no-cache-dir --prefix=/install .

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
RUN useradd --create-home --uid 10001 kozyr
COPY --from=build /install /usr/local
WORKDIR /app
COPY alembic.ini ./
COPY migrations ./migrations
COPY static ./static
USER kozyr
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --retries=3 \
  CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz').status != 200)"
CMD ["kozyr", "serve", "--host", "0.0.0.0", "--port", "8000"]
