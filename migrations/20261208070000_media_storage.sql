-- Media library on Supabase Storage (docs/media.md, docs/adr/0040-media-on-supabase-storage.md).
--
-- Storage's own tables: on Supabase the storage schema, storage.buckets and storage.objects exist
-- and belong to supabase_storage_admin (postgres has no CREATE on the schema), so they are made
-- here only where they are missing: on a plain PostgreSQL and on PGlite, for the local Storage
-- that `npm start` serves under /storage/v1 (local-platform/storage/). The columns are the subset
-- of Supabase's that the local Storage uses, with Supabase's names and types.
create schema if not exists storage;

do $$
begin
  if to_regclass('storage.buckets') is null then
    create table storage.buckets (
      id text primary key,
      name text not null unique,
      owner uuid,
      public boolean not null default false,
      file_size_limit bigint,
      allowed_mime_types text[],
      created_at timestamptz default now(),
      updated_at timestamptz default now()
    );
    create table storage.objects (
      id uuid primary key default gen_random_uuid(),
      bucket_id text references storage.buckets (id),
      name text,
      owner uuid,
      created_at timestamptz default now(),
      updated_at timestamptz default now(),
      last_accessed_at timestamptz default now(),
      metadata jsonb,
      unique (bucket_id, name)
    );
    create index name_prefix_search on storage.objects (name text_pattern_ops);
    alter table storage.objects enable row level security;
    alter table storage.buckets enable row level security;
    grant usage on schema storage to anon, authenticated, service_role;
    grant select, insert, update, delete on storage.objects to authenticated, service_role;
    grant select on storage.buckets to authenticated, service_role;
    -- Buckets are made by the deployment (this migration, or the dashboard), never by a tenant.
    create policy buckets_read on storage.buckets for select to authenticated using (true);
  end if;
end
$$;

-- The media bucket: private (every read is authorized or signed), images only, 25 MB at most per
-- object (the plans bound it lower, media_plan_limits below). On Supabase postgres may write the
-- bucket row; docs/deploy.md names the same settings and the deploy check reads them back.
-- Supabase's Storage server adds the settings columns at its own start-up; a database that has its
-- tables without them (Supabase's schema before the server ran) gets the bucket by name only.
do $$
begin
  if exists (select 1 from information_schema.columns
             where table_schema = 'storage' and table_name = 'buckets' and column_name = 'allowed_mime_types') then
    insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
    values ('media', 'media', false, 26214400,
            array['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif', 'image/svg+xml'])
    on conflict (id) do nothing;
  else
    insert into storage.buckets (id, name) values ('media', 'media') on conflict (id) do nothing;
  end if;
end
$$;

-- Row-level security on storage.objects for the media bucket: an object lives under its tenant's
-- prefix (<tenant_id>/...); members read their tenant's objects, write under its prefix, and a
-- contributor changes or removes only what it uploaded (owner). A published-only claim reaches
-- none (its readers get signed URLs from the Content API). Only the owner of storage.objects may
-- add policies to it: on Supabase that is supabase_storage_admin, which postgres is no longer a
-- member of, so there the statements are skipped with a notice and docs/deploy.md has them run
-- in the SQL editor. The functions do not depend on them: they authorize through public.media.
do $$
begin
  if pg_has_role(current_user, (select relowner from pg_class where oid = 'storage.objects'::regclass), 'USAGE') then
    execute $p$
      create policy media_objects_select on storage.objects for select to authenticated
        using (bucket_id = 'media' and split_part(name, '/', 1) = (select private.request_tenant_id())::text)
    $p$;
    execute $p$
      create policy media_objects_insert on storage.objects for insert to authenticated
        with check (bucket_id = 'media' and split_part(name, '/', 1) = (select private.request_tenant_id())::text
                    and owner = (select auth.uid()))
    $p$;
    execute $p$
      create policy media_objects_update on storage.objects for update to authenticated
        using (bucket_id = 'media' and split_part(name, '/', 1) = (select private.request_tenant_id())::text
               and ((select private.request_not_contributor()) or owner = (select auth.uid())))
        with check (bucket_id = 'media' and split_part(name, '/', 1) = (select private.request_tenant_id())::text)
    $p$;
    execute $p$
      create policy media_objects_delete on storage.objects for delete to authenticated
        using (bucket_id = 'media' and split_part(name, '/', 1) = (select private.request_tenant_id())::text
               and ((select private.request_not_contributor()) or owner = (select auth.uid())))
    $p$;
    execute $p$
      create policy media_objects_published_only on storage.objects as restrictive for all to authenticated
        using (not (select private.request_published_only()))
        with check (not (select private.request_published_only()))
    $p$;
  else
    raise notice 'storage.objects belongs to another role: create its media policies as docs/deploy.md says';
  end if;
end
$$;

-- Per plan: the largest file a tenant may upload and the bytes its library may hold.
create table public.media_plan_limits (
  plan text primary key check (plan in ('free', 'pro', 'business', 'enterprise')),
  max_file_bytes bigint not null check (max_file_bytes > 0 and max_file_bytes <= 26214400),
  storage_quota_bytes bigint not null check (storage_quota_bytes > 0)
);
insert into public.media_plan_limits (plan, max_file_bytes, storage_quota_bytes) values
  ('free', 5242880, 524288000),
  ('pro', 10485760, 10737418240),
  ('business', 26214400, 107374182400),
  ('enterprise', 26214400, 1099511627776);
alter table public.media_plan_limits enable row level security;
create policy media_plan_limits_select on public.media_plan_limits for select to anon, authenticated using (true);
create policy published_only_sees_nothing on public.media_plan_limits as restrictive for all to authenticated
  using (not (select private.request_published_only()))
  with check (not (select private.request_published_only()));
grant select on public.media_plan_limits to anon, authenticated;

-- The library: one row per stored image, its object under the tenant's prefix.
create table public.media (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  object_path text not null unique
    check (object_path ~ '^[0-9a-f-]{36}/[0-9a-f-]{36}/[A-Za-z0-9][A-Za-z0-9._-]{0,119}$'
           and split_part(object_path, '/', 1) = tenant_id::text
           and split_part(object_path, '/', 2) = id::text),
  file_name text not null check (length(file_name) between 1 and 255),
  alt_text text not null default '' check (length(alt_text) <= 1000),
  caption text not null default '' check (length(caption) <= 2000),
  width integer check (width > 0),
  height integer check (height > 0),
  bytes bigint not null check (bytes > 0),
  content_type text not null
    check (content_type in ('image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif', 'image/svg+xml')),
  uploaded_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default date_trunc('milliseconds', now()),
  updated_at timestamptz not null default date_trunc('milliseconds', now())
);
create index media_tenant_id_idx on public.media (tenant_id, created_at desc, id);

alter table public.media enable row level security;
create policy media_all on public.media to authenticated
  using (tenant_id = (select private.request_tenant_id()))
  with check (tenant_id = (select private.request_tenant_id()));
-- A contributor uploads as itself and changes or removes only its own uploads; it uses (reads)
-- the whole library, as it reads the tenant's tags.
create policy media_contributor_insert on public.media as restrictive for insert to authenticated
  with check ((select private.request_not_contributor()) or uploaded_by = (select auth.uid()));
create policy media_contributor_update on public.media as restrictive for update to authenticated
  using ((select private.request_not_contributor()) or uploaded_by = (select auth.uid()));
create policy media_contributor_delete on public.media as restrictive for delete to authenticated
  using ((select private.request_not_contributor()) or uploaded_by = (select auth.uid()));
create policy published_only_sees_nothing on public.media as restrictive for all to authenticated
  using (not (select private.request_published_only()))
  with check (not (select private.request_published_only()));
grant select, delete on public.media to authenticated;
grant insert (id, tenant_id, object_path, file_name, alt_text, caption, width, height, bytes, content_type, uploaded_by)
  on public.media to authenticated;
grant update (alt_text, caption, updated_at) on public.media to authenticated;
