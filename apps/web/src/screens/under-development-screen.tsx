import { Navigate } from '@tanstack/react-router';

/** docs/product.md#screens: the section under development exists as a route, and its screen is not shown. */
export const UnderDevelopmentScreen = () => <Navigate to="/" replace />;
