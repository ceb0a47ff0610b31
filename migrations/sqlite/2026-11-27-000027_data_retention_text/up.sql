-- The privacy page's "How long we keep your data": a text staff may edit like the others; its
-- {guest_cart_days}, {guest_order_days} and {mail_days} are the store's settings (GUEST_CART_DAYS,
-- GUEST_ORDER_DAYS, MAIL_KEEP_DAYS), filled in by the call that reads it, so the page states
-- the periods housekeeping keeps (db::housekeeping).
INSERT INTO site_texts (key, title, body) VALUES ('data_retention', 'How long we keep your data',
'If you shop as a guest, your cart is kept for {guest_cart_days} days after you last change it, then deleted.

If you order as a guest, your name, mobile number, email and delivery address stay with the order for {guest_order_days} days after it is completed or cancelled, and are then erased; the order itself (what was bought, when and for how much) is kept for our accounts. You may ask us at privacy@talabrewing.ph to erase them sooner.

If you are a member, your profile, addresses, Go-to Cases and orders are kept until you delete your account. When you delete your account, your orders are kept for our accounts without your name, mobile number, email and address.

Your session on this device ends after an hour without use. The links we email you (to confirm your account or newsletter signup, or to choose a new password) stop working after at most a week and are then deleted, as is an email we could not deliver after {mail_days} days. Newsletter signups that were never confirmed are deleted when their link expires.');
