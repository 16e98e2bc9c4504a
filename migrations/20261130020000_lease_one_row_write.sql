-- Issue 25: a rate-limit lease writes one row version, not two.
--
-- private.lease_rate_limit (migration 20261127020000) locked the bucket with an upsert that set
-- tat to itself (a new row version, written only to hold the lock) and then updated tat (a
-- second). It now locks the row with SELECT ... FOR UPDATE, which writes no row version, and
-- writes the new tat once; a bucket's first lease inserts its final tat directly. A lease that
-- grants nothing writes nothing. tests/hot-path.test.ts counts the row versions of a lease.
--
-- Same semantics as before. Instances racing for a bucket are serialised by the row lock: the one
-- that waits reads the tat the other committed (READ COMMITTED re-reads a row locked FOR UPDATE
-- after the lock is released). Two first leases racing to insert: the second's insert waits on
-- the first's uncommitted key, then finds the conflict, does nothing, and takes the row lock as
-- any later lease does.
--
-- The tokens granted are the arrival slots base + step, ..., base + granted * step. An instance
-- may spend the token of slot s until s + p_grace (a lease is spent over time); so that this
-- lateness can never admit more than a plain GCRA would, every take on the bucket keeps p_grace of
-- the period free (the burst is the limit less p_grace's worth of tokens). p_grace is a function
-- of the limit alone (rate-leases.ts), the same on every instance; 0 for small limits, where a
-- lease is one token. Grants fewer than p_want (down to none) when fewer fit. The base is the
-- bucket's TAT, or now when that lies in the past (a full bucket) or more than a period ahead (a
-- clock that went back).
create or replace function private.lease_rate_limit(
  p_bucket text,
  p_limit integer,
  p_want integer,
  p_grace interval,
  p_now timestamptz
)
returns table (granted integer, base timestamptz, tat timestamptz)
language plpgsql set search_path = '' as $$
declare
  v_step interval := interval '60 seconds' / p_limit;
  v_horizon timestamptz := p_now + interval '60 seconds' - p_grace;
  v_old timestamptz;
  v_base timestamptz;
  v_granted integer;
begin
  select b.tat into v_old from private.rate_limit_buckets b where b.bucket = p_bucket for update;
  if not found then
    -- A full bucket: base is now. Insert the tat after this lease; done unless another lease
    -- inserted the bucket first.
    v_granted := greatest(0, least(p_want,
      floor(extract(epoch from (v_horizon - p_now)) / extract(epoch from v_step) + 1e-9)::integer));
    insert into private.rate_limit_buckets (bucket, tat)
    values (p_bucket, p_now + v_step * v_granted)
    on conflict (bucket) do nothing;
    if found then
      return query select v_granted, p_now, p_now + v_step * v_granted;
      return;
    end if;
    select b.tat into v_old from private.rate_limit_buckets b where b.bucket = p_bucket for update;
  end if;
  v_base := case when v_old > p_now + interval '60 seconds' or v_old < p_now then p_now else v_old end;
  v_granted := greatest(0, least(p_want,
    floor(extract(epoch from (v_horizon - v_base)) / extract(epoch from v_step) + 1e-9)::integer));
  if v_granted > 0 then
    update private.rate_limit_buckets b set tat = v_base + v_step * v_granted where b.bucket = p_bucket;
  end if;
  return query select v_granted, v_base, v_base + v_step * v_granted;
end
$$;
