-- Every statement of query-service's role ends after 5 s, whatever asked for it: a page is a few indexed reads of a
-- few milliseconds, so a statement that runs longer is a request doing unbounded work, and the database cancels it
-- instead of letting concurrent ones pile up. Set on the role (cluster-wide, like the role), so it holds for every
-- session that logs in as podium_query, whatever its connection settings.
ALTER ROLE podium_query SET statement_timeout = '5s';
