//! What every port shares: its boxed future and its error. The bottom layer: every port and
//! store names these, and this module names nothing of the crate.

use std::future::Future;
use std::pin::Pin;

/// A boxed future, so the ports can be used as trait objects.
pub type PortFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A port could not be asked (the store or the network failed); nothing was changed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("shared state unavailable: {0}")]
pub struct PortError(pub String);
