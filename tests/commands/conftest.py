from tests.fakes.backend import bench, github_server, migrated_store

__all__ = ["bench", "github_server", "migrated_store"]
