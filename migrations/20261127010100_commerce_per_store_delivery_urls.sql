-- Shopify deliveries go to each store's own address (issue 28, item 1: shop-domain squatting).
--
-- The shared address (POST /functions/v1/commerce-webhook) found stores by the unsigned
-- X-Shopify-Shop-Domain header across all tenants, limit 10: anyone could create free tenants,
-- connect someone else's shop domain ten times, and the real owner's correctly signed deliveries
-- were answered 401 (Shopify then drops the subscription). Every store's webhook_url is now its
-- own path (/commerce-webhook/stores/{id}), where only that store's secret is tried, so no other
-- tenant's stores can change its outcome.
--
-- Shopify stores connected before this change may have subscriptions pointing at the shared
-- address: they keep it (shared_address = true), and no store added from now on joins them, so
-- the set of candidates for any domain there can only shrink. Changing a store's shop domain takes
-- it off the shared address too (its subscriptions have to be made again anyway).
alter table public.commerce_stores add column shared_address boolean not null default false;
update public.commerce_stores set shared_address = true where platform = 'shopify';

drop index if exists public.commerce_stores_shop_idx;
create index commerce_stores_shared_address_idx on public.commerce_stores (shop, created_at)
  where platform = 'shopify' and shared_address;

-- Tenants insert stores (through the API or, on Supabase, the Data API) but may not put one on
-- the shared address: the insert grant names every column except shared_address, and it has no
-- update grant.
revoke insert on public.commerce_stores from authenticated;
grant insert (id, tenant_id, platform, shop, name, secret_ciphertext, secret_updated_at, created_by, created_at, updated_at)
  on public.commerce_stores to authenticated;

create function private.commerce_store_leaves_shared_address() returns trigger
language plpgsql set search_path = '' as $$
begin
  if new.shop is distinct from old.shop then
    new.shared_address := false;
  end if;
  return new;
end
$$;
revoke all on function private.commerce_store_leaves_shared_address() from public;

create trigger commerce_stores_leave_shared_address before update of shop on public.commerce_stores
  for each row execute function private.commerce_store_leaves_shared_address();
