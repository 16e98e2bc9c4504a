-- Issue 45 (item 3): leases that last, so that renewals stay rare for a key used below its limit.
--
-- A lease's tokens are arrival slots; a token may be spent until p_grace after its slot, never
-- later (shared/infra/hot-path/rate-leases.ts). With the slots one step (60 s / limit) apart, a key
-- used far below its limit spends its tokens much slower than their slots pass, so most of a
-- block expired unspent and a busy-but-not-full key renewed its lease every few seconds on every
-- instance (171 lease writes per 1,000 reads over two instances and 20 keys).
--
-- This lease takes a spacing too: the slots are base + spacing, base + 2 spacing, ... with spacing
-- at least a step, so a block lasts as long as the instance's own pace needs. The bound is the
-- same argument as before: every admitted request still holds its own slot, the slots at least a
-- step apart, each no later than now + period - grace and spent at most grace after it, so no
-- span admits more than plain GCRA would. A wider spacing moves the bucket's TAT further per token:
-- tokens that go unspent only under-admit (the caller keeps spacing * tokens within a third of
-- the period). When the bucket has less room than p_want tokens at p_spacing, the spacing narrows
-- (down to a step) so that the lease still grants what fits: a wider spacing never refuses a
-- request that plain GCRA would admit.
--
-- The five-argument lease of migration 20261130020000 stays as it was (the instances of a rolling
-- deploy that still call it share the bucket's rows and the same bound).
create function private.lease_rate_limit(
  p_bucket text,
  p_limit integer,
  p_want integer,
  p_grace interval,
  p_now timestamptz,
  p_spacing interval
)
returns table (granted integer, base timestamptz, tat timestamptz, spacing interval)
language plpgsql set search_path = '' as $$
declare
  v_step interval := interval '60 seconds' / p_limit;
  v_horizon timestamptz := p_now + interval '60 seconds' - p_grace;
  v_want integer := greatest(p_want, 1);
  v_old timestamptz;
  v_base timestamptz;
  v_spacing interval;
  v_granted integer;
  v_new boolean := false;
begin
  select b.tat into v_old from private.rate_limit_buckets b where b.bucket = p_bucket for update;
  if not found then
    v_new := true;
    v_base := p_now;
  else
    v_base := case when v_old > p_now + interval '60 seconds' or v_old < p_now then p_now else v_old end;
  end if;
  -- The spacing asked for, narrowed so that the tokens wanted fit before the horizon, never
  -- below a step.
  v_spacing := greatest(v_step, least(greatest(p_spacing, v_step), (v_horizon - v_base) / v_want));
  v_granted := greatest(0, least(v_want,
    floor(extract(epoch from (v_horizon - v_base)) / extract(epoch from v_spacing) + 1e-9)::integer));
  if v_new then
    -- A full bucket: insert the tat after this lease; done unless another lease inserted it first.
    insert into private.rate_limit_buckets (bucket, tat)
    values (p_bucket, v_base + v_spacing * v_granted)
    on conflict (bucket) do nothing;
    if found then
      return query select v_granted, v_base, v_base + v_spacing * v_granted, v_spacing;
      return;
    end if;
    select b.tat into v_old from private.rate_limit_buckets b where b.bucket = p_bucket for update;
    v_base := case when v_old > p_now + interval '60 seconds' or v_old < p_now then p_now else v_old end;
    v_spacing := greatest(v_step, least(greatest(p_spacing, v_step), (v_horizon - v_base) / v_want));
    v_granted := greatest(0, least(v_want,
      floor(extract(epoch from (v_horizon - v_base)) / extract(epoch from v_spacing) + 1e-9)::integer));
  end if;
  if v_granted > 0 then
    update private.rate_limit_buckets b set tat = v_base + v_spacing * v_granted where b.bucket = p_bucket;
  end if;
  return query select v_granted, v_base, v_base + v_spacing * v_granted, v_spacing;
end
$$;
revoke all on function private.lease_rate_limit(text, integer, integer, interval, timestamptz, interval) from public;
