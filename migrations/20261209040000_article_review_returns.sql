-- Review as a loop (docs/content.md "Review"; docs/adr/0046-review-loop-and-newsroom-navigation.md).
--
-- An editor may hand a submitted draft back to its writer with a note: the draft leaves the review
-- queue (review_requested_at cleared) and keeps the note, who returned it and when, until the
-- writer submits it again or it is published or scheduled. The note lives on the article row, so
-- the article's policies (contributor writes included) already govern who reads and writes it.

alter table public.articles
  add column review_note text,
  add column review_returned_at timestamptz,
  add column review_returned_by uuid references auth.users(id) on delete set null;
alter table public.articles
  add constraint articles_review_note_check check (
    length(review_note) between 1 and 2000
    and (review_note is null) = (review_returned_at is null));
