-- Credentials vault: the provider catalog, tenants' encrypted provider credentials and their
-- usage records. Secrets are stored only as vault ciphertexts (shared/vault.ts: per-tenant data
-- key wrapped by the master key, AES-256-GCM, key version in every ciphertext); key_hint is the
-- only plaintext part. See docs/credentials.md.

-- The catalog of external providers. Global (no tenant), readable by everyone, written only by
-- migrations; ids are fixed here so every deployment and client agrees on them.
create table public.providers (
  id uuid primary key,
  slug text not null unique check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  name text not null check (length(name) between 1 and 100),
  category text not null check (category in (
    'AI', 'Payments', 'Email', 'Communications', 'Storage', 'Database', 'Infrastructure',
    'Development', 'Productivity', 'Analytics', 'Monitoring', 'Ecommerce', 'Affiliate', 'Scraping')),
  icon_url text not null check (icon_url like 'https://%'),
  created_at timestamptz not null default now()
);
create index providers_category_idx on public.providers (category, name);

alter table public.providers enable row level security;
create policy providers_select on public.providers for select to anon, authenticated using (true);
grant select on public.providers to anon, authenticated;

insert into public.providers (id, slug, name, category, icon_url) values
  ('bc152fb4-8e13-4148-bfdc-1734d3f3c667', 'openai', 'OpenAI', 'AI', 'https://openai.com/favicon.ico'),
  ('d93a4ccf-d51d-4724-b33c-944d28befd87', 'anthropic', 'Anthropic', 'AI', 'https://anthropic.com/favicon.ico'),
  ('95ec2d00-a09b-4ff3-9cc0-ed30dd424c6a', 'google-gemini', 'Google Gemini', 'AI', 'https://gemini.google.com/favicon.ico'),
  ('5aee60ad-fea7-4718-8e02-b1f63be44ddc', 'mistral', 'Mistral AI', 'AI', 'https://mistral.ai/favicon.ico'),
  ('b97aafa9-867b-40b1-a015-6764d19264fc', 'cohere', 'Cohere', 'AI', 'https://cohere.com/favicon.ico'),
  ('fd4c9865-0ba3-4720-a78f-19b194af3195', 'replicate', 'Replicate', 'AI', 'https://replicate.com/favicon.ico'),
  ('7de2f628-a272-4cc9-b872-f23078d5bc67', 'stripe', 'Stripe', 'Payments', 'https://stripe.com/favicon.ico'),
  ('ef68340b-2f34-426d-9e9f-efde5719f3c7', 'paypal', 'PayPal', 'Payments', 'https://paypal.com/favicon.ico'),
  ('00b61a45-363d-470c-bf57-d98746e93a0c', 'square', 'Square', 'Payments', 'https://squareup.com/favicon.ico'),
  ('a7415b74-597f-4671-b725-db89f06567f3', 'paddle', 'Paddle', 'Payments', 'https://paddle.com/favicon.ico'),
  ('c9069ff1-7cce-4ddb-9498-3dd258475bfe', 'sendgrid', 'SendGrid', 'Email', 'https://sendgrid.com/favicon.ico'),
  ('3a9ec611-0bff-4f40-978a-1d9822abe9de', 'mailgun', 'Mailgun', 'Email', 'https://mailgun.com/favicon.ico'),
  ('96efdab9-31c8-456d-bb27-222da3dd6930', 'postmark', 'Postmark', 'Email', 'https://postmarkapp.com/favicon.ico'),
  ('a3b6d5fa-47cf-45d6-a7e2-a71141e616d6', 'resend', 'Resend', 'Email', 'https://resend.com/favicon.ico'),
  ('a597dd72-7d51-4e97-bd7f-4aa741dde37d', 'twilio', 'Twilio', 'Communications', 'https://twilio.com/favicon.ico'),
  ('6498ba51-03f5-4624-9ca7-21d69a514483', 'slack', 'Slack', 'Communications', 'https://slack.com/favicon.ico'),
  ('78037fce-83bc-4ddc-80fb-d57007954ca5', 'discord', 'Discord', 'Communications', 'https://discord.com/favicon.ico'),
  ('cecbaa70-ca3b-4ecf-b1d2-d7c8b751566b', 'vonage', 'Vonage', 'Communications', 'https://vonage.com/favicon.ico'),
  ('0321fb70-cc0f-4864-a276-904747ccf8c9', 'aws-s3', 'Amazon S3', 'Storage', 'https://aws.amazon.com/favicon.ico'),
  ('fba15a55-c717-4849-a371-359c3823f3ab', 'cloudflare-r2', 'Cloudflare R2', 'Storage', 'https://cloudflare.com/favicon.ico'),
  ('aac03781-4fa9-4740-b986-3a6b66cb9646', 'google-cloud-storage', 'Google Cloud Storage', 'Storage', 'https://cloud.google.com/favicon.ico'),
  ('8c408d6c-5215-4b5d-844e-292ef8f1a3aa', 'backblaze-b2', 'Backblaze B2', 'Storage', 'https://backblaze.com/favicon.ico'),
  ('375f51b5-d564-4b04-b8b2-6f816e06910f', 'supabase', 'Supabase', 'Database', 'https://supabase.com/favicon.ico'),
  ('3024c324-31be-4f12-a543-6f4e413bb54c', 'mongodb-atlas', 'MongoDB Atlas', 'Database', 'https://mongodb.com/favicon.ico'),
  ('1afc6944-3ac7-44df-ab9f-363fbcbb6999', 'planetscale', 'PlanetScale', 'Database', 'https://planetscale.com/favicon.ico'),
  ('45d82f9f-a2e5-42ab-8c51-f0f605701810', 'upstash', 'Upstash', 'Database', 'https://upstash.com/favicon.ico'),
  ('a1f7c762-6ecd-4726-8218-a32e31850263', 'aws', 'Amazon Web Services', 'Infrastructure', 'https://aws.amazon.com/favicon.ico'),
  ('622464fc-6c7d-4af6-bacc-ef67062aa8b8', 'google-cloud', 'Google Cloud', 'Infrastructure', 'https://cloud.google.com/favicon.ico'),
  ('5f3ec174-672d-423f-97cc-ace57d60712f', 'cloudflare', 'Cloudflare', 'Infrastructure', 'https://cloudflare.com/favicon.ico'),
  ('9abb7032-cbbf-4e06-a3b0-f55db2fb6438', 'vercel', 'Vercel', 'Infrastructure', 'https://vercel.com/favicon.ico'),
  ('5d12fc25-6593-4b3a-8771-9cf415479755', 'github', 'GitHub', 'Development', 'https://github.com/favicon.ico'),
  ('95fdd486-173c-4460-892a-06e27d191d6e', 'gitlab', 'GitLab', 'Development', 'https://gitlab.com/favicon.ico'),
  ('8d8cd364-aba8-406e-8c7c-9e51c7803fc1', 'bitbucket', 'Bitbucket', 'Development', 'https://bitbucket.org/favicon.ico'),
  ('79f1e5e6-6c7d-4bc1-b362-0c1a1343bb34', 'npm', 'npm', 'Development', 'https://npmjs.com/favicon.ico'),
  ('cda76d4e-6638-4533-8d5d-54f1734799d6', 'notion', 'Notion', 'Productivity', 'https://notion.so/favicon.ico'),
  ('9c5f1546-4f7c-482a-a969-4c85eaec729a', 'airtable', 'Airtable', 'Productivity', 'https://airtable.com/favicon.ico'),
  ('80da1d9d-fe1b-4148-a99e-5493e193ddee', 'asana', 'Asana', 'Productivity', 'https://asana.com/favicon.ico'),
  ('0dc06e42-8a9c-48e7-82e6-a9530d3566ce', 'trello', 'Trello', 'Productivity', 'https://trello.com/favicon.ico'),
  ('74ea1448-9d69-4b4d-83f3-f53c8ab13a3a', 'google-analytics', 'Google Analytics', 'Analytics', 'https://analytics.google.com/favicon.ico'),
  ('ffd28a1a-60c3-4842-bdbc-20534b74218a', 'mixpanel', 'Mixpanel', 'Analytics', 'https://mixpanel.com/favicon.ico'),
  ('6acccf36-57b6-448a-9d67-ad6455f3c623', 'segment', 'Segment', 'Analytics', 'https://segment.com/favicon.ico'),
  ('5492e609-ab40-44be-a9a0-444e080dda2e', 'sentry', 'Sentry', 'Monitoring', 'https://sentry.io/favicon.ico'),
  ('6ac8aad7-fe09-4fd3-a574-35e494b136be', 'datadog', 'Datadog', 'Monitoring', 'https://datadoghq.com/favicon.ico'),
  ('3657c40f-6c71-458b-b552-10ab54d63dc7', 'new-relic', 'New Relic', 'Monitoring', 'https://newrelic.com/favicon.ico'),
  ('f022a3dc-1973-4551-9778-2d1bf2f1d22f', 'shopify', 'Shopify', 'Ecommerce', 'https://shopify.com/favicon.ico'),
  ('f9bb1c9a-e837-4f16-8d5b-1ded9c907ec9', 'woocommerce', 'WooCommerce', 'Ecommerce', 'https://woocommerce.com/favicon.ico'),
  ('2f0c06cc-fa6a-40b2-87c2-4ab911c1e26c', 'bigcommerce', 'BigCommerce', 'Ecommerce', 'https://bigcommerce.com/favicon.ico'),
  ('71c0ce9a-e6a2-433c-b982-d6e3104b3c02', 'amazon-associates', 'Amazon Associates', 'Affiliate', 'https://affiliate-program.amazon.com/favicon.ico'),
  ('722d3022-7844-4627-b6c5-bba053753038', 'impact', 'Impact', 'Affiliate', 'https://impact.com/favicon.ico'),
  ('c8014e6c-40f9-48d9-ab02-6a18805d7ba6', 'cj-affiliate', 'CJ Affiliate', 'Affiliate', 'https://cj.com/favicon.ico'),
  ('f6023e47-6607-4ef3-93eb-795993548d03', 'apify', 'Apify', 'Scraping', 'https://apify.com/favicon.ico'),
  ('e3357467-5b2d-4bed-ae33-9b4fc6b81d15', 'bright-data', 'Bright Data', 'Scraping', 'https://brightdata.com/favicon.ico');

create table public.credentials (
  id uuid primary key,
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  provider_id uuid not null references public.providers (id),
  name text not null check (length(name) between 1 and 100),
  environment text not null check (environment in ('development', 'staging', 'production')),
  -- '...' and 6 characters: the last 6 of the secret, or '******' for secrets of 6 or fewer.
  key_hint text not null check (key_hint like '...%' and char_length(key_hint) = 9),
  -- A vault ciphertext and nothing else: 'v1:<data key version>:<base64>'.
  secret_ciphertext text not null check (secret_ciphertext ~ '^v1:[0-9]+:[A-Za-z0-9+/]+=*$'),
  scopes text[] not null default '{}' check (cardinality(scopes) <= 20),
  expires_at timestamptz,
  last_used_at timestamptz,
  rotated_at timestamptz,
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, id)
);
-- One name per tenant, provider and environment (case-insensitive); also the lookup index of
-- the server-side entry point (tenant, provider, environment).
create unique index credentials_name_key on public.credentials (tenant_id, provider_id, environment, lower(name));
create index credentials_tenant_id_idx on public.credentials (tenant_id, created_at desc, id);
create index credentials_expires_at_idx on public.credentials (expires_at) where expires_at is not null;
create index credentials_provider_id_idx on public.credentials (provider_id);

alter table public.credentials enable row level security;
create policy credentials_select on public.credentials for select to authenticated
  using (tenant_id in (select private.user_tenant_ids()));
create policy credentials_insert on public.credentials for insert to authenticated
  with check ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])));
create policy credentials_update on public.credentials for update to authenticated
  using ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])))
  with check ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])));
create policy credentials_delete on public.credentials for delete to authenticated
  using ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])));
-- Column grants: tenants may write a new ciphertext (create, rotate) but never read one back,
-- and never change a credential's tenant, provider, environment or usage time.
grant select (id, tenant_id, provider_id, name, environment, key_hint, scopes, expires_at, last_used_at,
              rotated_at, created_by, created_at, updated_at) on public.credentials to authenticated;
grant insert (id, tenant_id, provider_id, name, environment, key_hint, secret_ciphertext, scopes, expires_at,
              created_by, created_at, updated_at) on public.credentials to authenticated;
grant update (name, scopes, expires_at, key_hint, secret_ciphertext, rotated_at, updated_at)
  on public.credentials to authenticated;
grant delete on public.credentials to authenticated;

-- One row per server-side use of a credential (written by the service path only).
create table public.credential_usage (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null,
  credential_id uuid not null,
  caller_kind text not null check (caller_kind in ('assistant', 'automation', 'server_function')),
  function_name text not null check (length(function_name) between 1 and 100),
  used_at timestamptz not null default now(),
  -- A usage record can only point at a credential of its own tenant.
  foreign key (tenant_id, credential_id) references public.credentials (tenant_id, id) on delete cascade
);
create index credential_usage_tenant_id_idx on public.credential_usage (tenant_id, used_at);
create index credential_usage_credential_idx on public.credential_usage (credential_id, used_at desc, id);

alter table public.credential_usage enable row level security;
create policy credential_usage_select on public.credential_usage for select to authenticated
  using (tenant_id in (select private.user_tenant_ids()));
grant select on public.credential_usage to authenticated;

select private.schedule_job('credential-expiry-alerts', '0 7 * * *', 'credentials/jobs/expiry-alerts');
select private.schedule_job('credential-usage-prune', '30 3 * * *', 'credentials/jobs/prune-usage');
