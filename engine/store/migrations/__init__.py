"""The PostgreSQL store's schema migrations, ``NNNN_name.sql``, applied in order by
:func:`engine.store.postgres.init` / :func:`~engine.store.postgres.upgrade`.  Never edit a
shipped migration: add the next number."""
