"""The PostgreSQL store's schema migrations, ``NNNN_name.sql``, applied in order by
:func:`engine.store.postgres.schema.init` / :func:`~engine.store.postgres.schema.upgrade`.
Never edit a shipped migration: add the next number."""
