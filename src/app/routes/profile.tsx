// /profile — the player's account (features/profile); visitors see a sign-in prompt.
import { ProfilePage } from '@/features/profile/components/profile-page';

export default function ProfileRoute() {
  return <ProfilePage />;
}
