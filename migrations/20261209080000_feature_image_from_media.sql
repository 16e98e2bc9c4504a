-- A feature image from the media library (docs/media.md): an article's feature_image_url holds
-- either an https URL, as before, or the library image's reference `media:<id>`, the same
-- reference a body uses (`![alt](media:<id>)`). The reference names an image of the article's
-- tenant: platform:set_feature_image reads it under row-level security before writing it, and a
-- referenced image cannot be deleted (the library refuses with the articles that use it).
alter table public.articles drop constraint articles_feature_image_url_check;
alter table public.articles add constraint articles_feature_image_url_check check (
  (feature_image_url ~ '^https://' or feature_image_url ~ '^media:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$')
  and length(feature_image_url) <= 2000
);
