/**
 * The command side's tables as Hibernate ORM entities (Panache). Flyway owns the schema (the migrations module);
 * Hibernate only validates these mappings against it at start. Columns with a database default that the command side
 * never sets ({@code created_at}) are read-only here, so the default applies.
 */
package dev.podium.ingest.entity;
