"""Storage: SQLAlchemy models, the database connection and migrations."""
