-- The contributor role (docs/adr/0027-contributor-role.md): below member, writes and edits its own
-- drafts and asks for review; publishing, scheduling, unpublishing and deleting others' work is
-- for members and up (the newsroom's editors). The database refuses what a missed check in code
-- would let through: restrictive policies on the content tables bind a contributor's writes to
-- drafts it authored.
alter table public.tenant_members drop constraint tenant_members_role_check;
alter table public.tenant_members add constraint tenant_members_role_check
  check (role in ('owner', 'admin', 'member', 'contributor'));
alter table public.invitations drop constraint invitations_role_check;
alter table public.invitations add constraint invitations_role_check
  check (role in ('owner', 'admin', 'member', 'contributor'));

-- A draft whose author asked for it to be reviewed; cleared when it is published or scheduled.
alter table public.articles add column review_requested_at timestamptz;

-- The caller's role in the tenant the request acts for (private.request_tenant_id()); null for
-- anyone who is not a member of it. STABLE and wrapped as `(select ...)` in the policies: one
-- read per statement, never per row.
create function private.request_role() returns text
language sql stable security definer set search_path = '' as $$
  select m.role from public.tenant_members m
  where m.tenant_id = (select private.request_tenant_id()) and m.user_id = auth.uid()
$$;
revoke execute on function private.request_role() from public;
grant execute on function private.request_role() to authenticated;

-- True unless the caller is a contributor: everyone else keeps what articles_all and its
-- neighbours give. Only writes are restricted; a contributor reads the tenant's content as a
-- member does.
create function private.request_not_contributor() returns boolean
language sql stable set search_path = '' as $$
  select (select private.request_role()) is distinct from 'contributor'
$$;
revoke execute on function private.request_not_contributor() from public;
grant execute on function private.request_not_contributor() to authenticated;

-- A contributor's article rows: drafts it authored, before and after the write.
create policy articles_contributor_insert on public.articles as restrictive for insert to authenticated
  with check ((select private.request_not_contributor())
              or (author_id = (select auth.uid()) and status = 'draft'));
create policy articles_contributor_update on public.articles as restrictive for update to authenticated
  using ((select private.request_not_contributor())
         or (author_id = (select auth.uid()) and status = 'draft'))
  with check ((select private.request_not_contributor())
              or (author_id = (select auth.uid()) and status = 'draft'));
create policy articles_contributor_delete on public.articles as restrictive for delete to authenticated
  using ((select private.request_not_contributor())
         or (author_id = (select auth.uid()) and status = 'draft'));

-- Revisions and tag links follow their article: a contributor writes them for its own drafts only.
create policy article_revisions_contributor_insert on public.article_revisions as restrictive for insert
  to authenticated
  with check ((select private.request_not_contributor())
              or exists (select 1 from public.articles a
                         where a.id = article_id and a.author_id = (select auth.uid()) and a.status = 'draft'));
create policy article_revisions_contributor_update on public.article_revisions as restrictive for update
  to authenticated using ((select private.request_not_contributor()));
create policy article_revisions_contributor_delete on public.article_revisions as restrictive for delete
  to authenticated using ((select private.request_not_contributor()));

create policy article_tags_contributor_insert on public.article_tags as restrictive for insert to authenticated
  with check ((select private.request_not_contributor())
              or exists (select 1 from public.articles a
                         where a.id = article_id and a.author_id = (select auth.uid()) and a.status = 'draft'));
create policy article_tags_contributor_update on public.article_tags as restrictive for update to authenticated
  using ((select private.request_not_contributor()));
create policy article_tags_contributor_delete on public.article_tags as restrictive for delete to authenticated
  using ((select private.request_not_contributor())
         or exists (select 1 from public.articles a
                    where a.id = article_id and a.author_id = (select auth.uid()) and a.status = 'draft'));

-- The tenant's tags and sites are its editors' to manage; a contributor uses them.
create policy tags_contributor_insert on public.tags as restrictive for insert to authenticated
  with check ((select private.request_not_contributor()));
create policy tags_contributor_update on public.tags as restrictive for update to authenticated
  using ((select private.request_not_contributor()));
create policy tags_contributor_delete on public.tags as restrictive for delete to authenticated
  using ((select private.request_not_contributor()));
create policy sites_contributor_insert on public.sites as restrictive for insert to authenticated
  with check ((select private.request_not_contributor()));
create policy sites_contributor_update on public.sites as restrictive for update to authenticated
  using ((select private.request_not_contributor()));
create policy sites_contributor_delete on public.sites as restrictive for delete to authenticated
  using ((select private.request_not_contributor()));

-- A member demoted to contributor stops running automations like one demoted to member.
create or replace function private.follow_membership_change() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if not exists (select 1 from public.tenants where id = old.tenant_id) then
    return null;
  end if;
  if tg_op = 'DELETE' then
    update public.mcp_oauth_grants set revoked_at = now()
    where tenant_id = old.tenant_id and user_id = old.user_id and revoked_at is null;
    update public.api_keys set revoked_at = now()
    where tenant_id = old.tenant_id and created_by = old.user_id and revoked_at is null;
    update public.assistant_automations set enabled = false, disabled_reason = 'creator_removed',
      updated_at = date_trunc('milliseconds', now())
    where tenant_id = old.tenant_id and created_by = old.user_id and enabled;
  elsif new.role in ('member', 'contributor') and old.role in ('owner', 'admin') then
    update public.assistant_automations set enabled = false, disabled_reason = 'creator_demoted',
      updated_at = date_trunc('milliseconds', now())
    where tenant_id = old.tenant_id and created_by = old.user_id and enabled;
  end if;
  return null;
end
$$;
revoke execute on function private.follow_membership_change() from public;
