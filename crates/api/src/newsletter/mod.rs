//! The newsletter: signing up by a confirmation link; the footer's form without JavaScript
//! ([`form`]).

pub mod form;
