// `embed_migrations!` reads the migration folders at compile time: rebuild when they change.
fn main() {
    println!("cargo:rerun-if-changed=../../migrations");
}
